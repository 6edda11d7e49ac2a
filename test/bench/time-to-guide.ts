// Time to a guide during a first sync (issue 29), over emulated links (links.ts): a technician opens a
// guide the first sync has not reached, and it is kept ahead of the sync. Against that guide's own bytes
// over the link, the goal is within 1.5x plus one round trip, read two ways, both printed. Computed: the
// bytes' time at the link's rate, plus one round trip; no client meets it for a guide with pictures, which
// cannot come in one round trip (its pictures are known from its answer): the line also gives the ratio to
// its bytes plus two round trips, and plus three: what new connections would cost (each a handshake, a
// round trip), as the running sync's are all busy with answers. Measured, side by side in each round: a
// bare client asking the same answers, then the same pictures, over the same link once the sync is
// cancelled and the link idle, on connections opened before (guide-first-client.ts). The keep's text
// goes on the front lane (api/http.ts, sync/front-lane.ts): six connections opened once the sync's listing
// shows much to fetch and kept open while it runs, one for each request of the guide's text (the guide,
// its forms, tags, quizzes and releases). Its pictures stay on the shared pool, whose connections the
// held sync leaves idle: on the lane's six alone they were slower (2026-11-26, a lane of one connection).
import path from 'node:path';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startLink } from '../fault/link.ts';
import { runJsonChild, startSiteProcess } from './site-process.ts';

interface GuideFirst {
  ms: number;
  /** Until its text was stored (readable here, its pictures still coming); null if it never was. */
  readableMs: number | null;
  bytes: number;
  /** Its answers' bytes (the text and forms), without its media. */
  textBytes: number;
  mediaPending: number;
  /** The same answers and pictures asked by a bare client over the same link, idle, on warm connections. */
  floor: { ms: number; textMs: number };
}

const s = (ms: number): string => (ms / 1000).toFixed(2);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The last guide the site lists that tech1 may read: the one a first sync reaches last. */
async function lastReadableGuide(siteUrl: string, guides: number): Promise<number> {
  const answer = await fetch(`${siteUrl}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  });
  const { authToken } = (await answer.json()) as { authToken: string };
  for (let guideid = guides; guideid > 0; guideid--) {
    const guide = await fetch(`${siteUrl}/api/2.0/guides/${guideid}`, {
      headers: { Authorization: `api ${authToken}` },
    });
    await guide.arrayBuffer();
    if (guide.ok) return guideid;
  }
  throw new Error('no guide tech1 may read');
}

export async function benchTimeToGuide(
  links: { rttMs: number; mbit: number }[],
  tmpDir: string,
  guides: number,
  rounds: number,
  afterMs = 3_000,
): Promise<void> {
  const shaped = links.filter((link) => link.mbit > 0);
  if (shaped.length === 0) return;
  const db = path.join(tmpDir, `guide-first-${guides}.sqlite`);
  const args = ['--generate', '--guides', String(guides), '--steps', '6', '--images', '1', '--seed', '1'];
  const site = await startSiteProcess([...args, '--db', db, '--picture-cache-mb', '1024']);
  const lines: string[] = [];
  try {
    // Not counted: a first sync on loopback draws every picture into the site's cache, as the links bench
    // does (the reference site draws a picture when first asked; a real site serves files it has).
    await runJsonChild('sync-client.ts', [site.url]);
    const guideid = await lastReadableGuide(site.url, guides);
    for (const spec of shaped) {
      const link = await startLink({
        targetPort: Number(new URL(site.url).port),
        rttMs: spec.rttMs,
        mbitPerSec: spec.mbit,
      });
      try {
        const runs: GuideFirst[] = [];
        for (let round = 0; round < rounds; round++)
          runs.push(await runJsonChild<GuideFirst>('guide-first-client.ts', [link.url, site.url, String(guideid)]));
        const ms = median(runs.map((run) => run.ms));
        const bytes = median(runs.map((run) => run.bytes));
        const bytesMs = ((bytes * 8) / (spec.mbit * 1e6)) * 1000;
        const goal = 1.5 * bytesMs + spec.rttMs;
        const line =
          `time to guide ${guideid} over ${spec.rttMs}ms/${spec.mbit}Mbit during a first sync: ${s(ms)} s ` +
          `(median of ${runs.length}: ${runs.map((run) => s(run.ms)).join(', ')}); its own bytes ` +
          `${(bytes / 1e3).toFixed(0)} kB over the link ${s(bytesMs)} s + one round trip ${s(spec.rttMs)} s, ` +
          `ratio ${(ms / (bytesMs + spec.rttMs)).toFixed(2)} (goal: within 1.5x the bytes' time plus the round ` +
          `trip, ${s(goal)} s: ${ms <= goal ? 'met' : 'not met'}); against its bytes plus the two round trips ` +
          `one after the other that a guide with pictures needs (its answer names them) ` +
          `${s(bytesMs + 2 * spec.rttMs)} s: ratio ${(ms / (bytesMs + 2 * spec.rttMs)).toFixed(2)}; and with ` +
          `the handshake of the new connections it asks on first (the sync's are all busy) ` +
          `${s(bytesMs + 3 * spec.rttMs)} s: ratio ${(ms / (bytesMs + 3 * spec.rttMs)).toFixed(2)}`;
        const readable = runs.map((run) => run.readableMs ?? Number.POSITIVE_INFINITY);
        const readableMs = median(readable);
        const textMs = ((median(runs.map((run) => run.textBytes)) * 8) / (spec.mbit * 1e6)) * 1000;
        const textGoal = 1.5 * textMs + spec.rttMs;
        const readableLine =
          `  its steps readable here (text stored, pictures still coming): ${s(readableMs)} s ` +
          `(${readable.map(s).join(', ')}); its text's bytes over the link ${s(textMs)} s + one round trip, ` +
          `ratio ${(readableMs / (textMs + spec.rttMs)).toFixed(2)} (goal ${s(textGoal)} s: ` +
          `${readableMs <= textGoal ? 'met' : 'not met'}); with a new connection's handshake ` +
          `${s(textMs + 2 * spec.rttMs)} s: ratio ${(readableMs / (textMs + 2 * spec.rttMs)).toFixed(2)}`;
        // The floor measured side by side: the least a client can take for these bytes over this link.
        const floorMs = median(runs.map((run) => run.floor.ms));
        const floorTextMs = median(runs.map((run) => run.floor.textMs));
        const floorGoal = 1.5 * floorMs + spec.rttMs;
        const floorTextGoal = 1.5 * floorTextMs + spec.rttMs;
        const floorLine =
          `  against a bare client asking the same answers, then the same pictures, over the idle link on warm ` +
          `connections ${s(floorMs)} s (${runs.map((run) => s(run.floor.ms)).join(', ')}): ratio ` +
          `${(ms / floorMs).toFixed(2)} (goal: within 1.5x it plus one round trip, ${s(floorGoal)} s: ` +
          `${ms <= floorGoal ? 'met' : 'not met'}); its text ${s(floorTextMs)} s: readable ratio ` +
          `${(readableMs / floorTextMs).toFixed(2)} (goal ${s(floorTextGoal)} s: ` +
          `${readableMs <= floorTextGoal ? 'met' : 'not met'})`;
        console.error(line);
        console.error(readableLine);
        console.error(floorLine);
        lines.push(line, readableLine, floorLine);
        // The same guide asked with the sync in full flow: its lanes grown, its answers queued ahead.
        const later: GuideFirst[] = [];
        for (let round = 0; round < rounds; round++)
          later.push(
            await runJsonChild<GuideFirst>('guide-first-client.ts', [
              link.url,
              site.url,
              String(guideid),
              String(afterMs),
            ]),
          );
        const laterMs = median(later.map((run) => run.ms));
        const laterLine =
          `  asked ${s(afterMs)} s after the first guide was stored, the sync in full flow: whole ` +
          `${s(laterMs)} s (${later.map((run) => s(run.ms)).join(', ')}), its text ` +
          `readable ${s(median(later.map((run) => run.readableMs ?? Number.POSITIVE_INFINITY)))} s ` +
          `(${later.map((run) => s(run.readableMs ?? Number.POSITIVE_INFINITY)).join(', ')}; 0: stored before); ` +
          `against its bytes plus two round trips ${s(bytesMs + 2 * spec.rttMs)} s: ratio ` +
          `${(laterMs / (bytesMs + 2 * spec.rttMs)).toFixed(2)}; against the bare client's ${s(floorMs)} s: ` +
          `ratio ${(laterMs / floorMs).toFixed(2)} (goal ${s(floorGoal)} s: ` +
          `${laterMs <= floorGoal ? 'met' : 'not met'})`;
        console.error(laterLine);
        lines.push(laterLine);
      } finally {
        await link.close();
      }
    }
  } finally {
    await site.stop();
  }
  console.log(`\nTime to a guide opened during a first sync of ${guides} guides`);
  for (const line of lines) console.log(line);
}
