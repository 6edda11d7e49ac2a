import fs from 'node:fs';
import path from 'node:path';
import { rendererDir } from '../e2e/browser.ts';
import { slowDiskEnv, slowDiskLibrary } from '../helpers/slow-disk.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { runJsonChild } from './site-process.ts';
import { summary } from './technician-waits.ts';

type Figures = {
  waits: Record<string, number[]>;
  flushes: Record<string, { main: number; pool: number }>;
  heldMaxMs: number;
  rounds: number;
};

/**
 * What the technician waits for as the disk slows (slow-disk-waits.ts): the same rounds with each flush of
 * the data folder taking `delays` more milliseconds (0: this machine's disk), side by side. A laptop's disk
 * busy with an update or a scan takes 30 to 100 ms a flush, and every answer of the main process waits
 * behind a flush made on its main thread.
 */
export async function benchSlowDisk(rounds: number, delays: number[]): Promise<void> {
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
    console.log(
      '\nWhat the technician waits for on a slow disk: skipped, the renderer is not built (npm run build first)',
    );
    return;
  }
  try {
    slowDiskLibrary();
  } catch (error) {
    console.log(`\nWhat the technician waits for on a slow disk: skipped, ${String(error)}`);
    return;
  }
  console.log(
    `\nWhat the technician waits for on a slow disk, from the click to the screen (Chromium, 1366x768, ` +
      `${rounds} rounds, the site answering; flushes per round, on the main thread / off it):`,
  );
  for (const delay of delays) {
    const tmp = makeTempDir('bench-slow-disk');
    try {
      const dataDir = path.join(tmp.dir, 'data');
      const log = path.join(tmp.dir, 'flushes.log');
      const figures = await runJsonChild<Figures>(
        'slow-disk-waits.ts',
        [dataDir, log, String(rounds), path.join(tmp.dir, 'site.sqlite')],
        slowDiskEnv(dataDir, log, delay),
      );
      const each = Object.keys(figures.waits).map((action) => {
        const { main, pool } = figures.flushes[action]!;
        const perRound = (n: number) => (n / figures.rounds).toFixed(1);
        return `${action} ${summary(figures.waits[action]!)}, flushes ${perRound(main)} / ${perRound(pool)}`;
      });
      const held = `the main thread held at most ${figures.heldMaxMs.toFixed(0)} ms`;
      console.log(`each flush +${delay} ms: ${each.join('; ')}; ${held} (target 300 ms each)`);
    } finally {
      tmp.remove();
    }
  }
}
