import path from 'node:path';
import { makeTempDir } from '../helpers/tmp.ts';
import { runJsonChild, startSiteProcess } from './site-process.ts';

type Timed = { ms: number; heldMs: number };
type Figures = { mb: number; attach: Timed; review: Timed; uploadMb: number; attachTaken: Timed; upload: Timed };

/**
 * A big video in a work session (big-file-client.ts), `rounds` times in processes of their own: what the
 * technician waits for, and the longest the main thread is held meanwhile (every screen's answer waits
 * behind it). Its step shown asks nothing of the core for a video (only photos are read back for a thumbnail).
 */
export async function benchBigFile(mb: number, rounds: number): Promise<void> {
  const dir = makeTempDir('bench-big-file-site');
  const site = await startSiteProcess(['--demo', '--db', path.join(dir.dir, 'demo.sqlite')]);
  try {
    const runs: Figures[] = [];
    for (let round = 0; round < rounds; round++)
      runs.push(await runJsonChild<Figures>('big-file-client.ts', [site.url, String(mb)]));
    const median = (pick: (run: Figures) => number): string => {
      const values = runs.map(pick).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)]!.toFixed(0);
    };
    const line = (what: string, pick: (run: Figures) => Timed): string =>
      `${what} ${median((r) => pick(r).ms)} ms, the main thread held at most ${median((r) => pick(r).heldMs)} ms`;
    const [first] = runs;
    console.log(`\nA big video in a work session (medians of ${runs.length} rounds, the site answering):`);
    console.log(`  ${line(`attach ${first!.mb.toFixed(0)} MB:`, (r) => r.attach)}`);
    console.log(`  ${line('the Finish review checks it:', (r) => r.review)}`);
    console.log(`  ${line(`attach ${first!.uploadMb.toFixed(1)} MB (the site takes 25 MiB):`, (r) => r.attachTaken)}`);
    console.log(`  ${line('its upload by the outbox:', (r) => r.upload)}`);
  } finally {
    await site.stop();
    dir.remove();
  }
}
