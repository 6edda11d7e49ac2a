import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../server/generator/generator.ts';
import type { RunningSite } from '../../server/site.ts';
import { QUEUE_TARGET_MS } from '../../electron/core/sync/pool.ts';
import { startLink } from '../fault/link.ts';
import { startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { firstSyncStoring } from '../helpers/first-sync.ts';

// Issue 29: a guide the technician opens during a sync waits behind every byte the sync has asked for and
// not yet received. A sync that keeps more requests out than fill the link gains nothing by it and only
// lengthens that queue: its lanes (sync/pool.ts) shrink once its requests wait QUEUE_TARGET_MS longer than
// the quickest lately. Read from the emulated link's own queue (the bytes waiting towards this computer),
// during a first sync of 200 guides with their pictures over 100 ms/4 Mbit.
let site: RunningSite;

beforeAll(async () => {
  site = await startTestSite({ seed: (db) => void generateSite(db, { guides: 200, steps: 6, images: 1, seed: 1 }) });
}, 60_000);
afterAll(async () => {
  await site?.close();
});

const MBIT = 4;
const BYTES_PER_MS = (MBIT * 1e6) / 8 / 1000;

describe('a first sync over a slow link', () => {
  it('keeps little more waiting on the link than its queue target, the link busy all the same', async () => {
    const link = await startLink({ targetPort: Number(new URL(site.url).port), rttMs: 100, mbitPerSec: MBIT });
    const app = makeServices();
    try {
      const { sync: first } = await firstSyncStoring(app.services, link.url);
      let running = true;
      const sync = first.finally(() => (running = false));
      // Its guides and pictures in full flow: the link's queue looked at every 50 ms, 120 times at most.
      const waiting: number[] = [];
      for (let look = 0; look < 120 && running; look++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        waiting.push(link.queuedDown());
      }
      unwrap(await app.services.api.cancelSync());
      await sync;
      const sorted = [...waiting].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      const kB = (bytes: number): string => `${Math.round(bytes / 1000)} kB`;
      const told = `waiting on the link: ${waiting.map(kB).join(' ')}`;
      expect(waiting.length, told).toBeGreaterThan(20);
      // The link was in use (the sync was not held back to nothing)…
      expect(sorted.at(-1)!, told).toBeGreaterThan(0);
      // …and what waited on it was mostly within three times the target's worth (75 kB, 150 ms here).
      // Before the lanes read their requests' times: 150-200 kB, 64 pictures and 32 guides out at once.
      expect(median, told).toBeLessThanOrEqual(3 * QUEUE_TARGET_MS * BYTES_PER_MS);
    } finally {
      await app.dispose();
      await link.close();
    }
  }, 60_000);
});
