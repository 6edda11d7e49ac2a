import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { always, mulberry32, type FaultProxy } from '../fault/proxy.ts';
import { lostOf, queueAndKill, type Ack } from '../helpers/acked-work.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { syncedWorkFolder } from '../helpers/work-folder.ts';
import { seedCount, seedStart } from '../helpers/seeds.ts';

// A damaged or deleted write-ahead log after a kill (issue 24, items 1 and 2). The app is SIGKILLed once
// it has acknowledged 65 actions and 26 values queued offline, all still in the log; then 1-3 bytes of
// the log are flipped (20 seeds), or the log is deleted. SQLite reads a log up to its first frame whose
// checksum fails and passes quick_check without it: before the work journal, those saves were gone
// without a word. Now nothing acknowledged is lost, and what was found is said.
const DB = 'fieldguide.sqlite';
const SEEDS = seedCount(20, 4);
let site: RunningSite;
let proxy: FaultProxy;
let crashed: ReturnType<typeof makeTempDir>;
let acks: Ack[];

beforeAll(async () => {
  const synced = await syncedWorkFolder('log-damage');
  ({ site, proxy, folder: crashed } = synced);
  const guideid = synced.guideid;
  await synced.app.services.close();
  // Offline: nothing the child queues reaches the site.
  proxy.setSchedule(always({ kind: 'reset' }));
  acks = await queueAndKill(crashed.dir, guideid, 13);
  expect(acks.filter((a) => a.kind !== 'stepData')).toHaveLength(39);
  expect(acks.filter((a) => a.kind === 'stepData')).toHaveLength(26);
  expect(fs.statSync(path.join(crashed.dir, `${DB}-wal`)).size, 'the work is in the log').toBeGreaterThan(65 * 4096);
}, 180_000);
afterAll(async () => {
  crashed?.remove();
  await proxy?.close();
  await site?.close();
});

function copyOfCrashed(name: string): ReturnType<typeof makeTempDir> {
  const dir = makeTempDir(name);
  fs.cpSync(crashed.dir, dir.dir, { recursive: true });
  return dir;
}

/** Flips 1-3 bytes at seeded places of a file; answers where. */
function flipBytes(file: string, random: () => number): number[] {
  const bytes = fs.readFileSync(file);
  const at = Array.from({ length: 1 + Math.floor(random() * 3) }, () => Math.floor(random() * bytes.length));
  for (const offset of at) bytes[offset] = bytes[offset]! ^ (1 + Math.floor(random() * 255));
  fs.writeFileSync(file, bytes);
  return at;
}

/** The actions SQLite alone reads from these files (on a copy: opening a database changes it). */
function actionsSqliteReads(dir: string): number {
  const probe = makeTempDir('log-damage-probe');
  try {
    for (const suffix of ['', '-wal']) {
      if (fs.existsSync(path.join(dir, DB + suffix)))
        fs.copyFileSync(path.join(dir, DB + suffix), path.join(probe.dir, DB + suffix));
    }
    const db = new Database(path.join(probe.dir, DB));
    try {
      return (db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } finally {
    probe.remove();
  }
}

/** Starts the app on the folder: every acknowledged action and value is there, and a damage found was said. */
async function startAndCount(dir: string, label: string) {
  const app = makeServices(dir);
  try {
    const lost = await lostOf(app.services.api, acks);
    const repair = unwrap(await app.services.api.getSyncState()).repair;
    return { lost, repair, logs: app.logs };
  } finally {
    await app.services.close();
  }
}

describe('a write-ahead log damaged after a kill', () => {
  it(
    `loses no acknowledged action or value over ${SEEDS} seeds of 1-3 flipped bytes, and says what it found`,
    { timeout: 300_000 },
    async () => {
      const random = mulberry32(seedStart(2424));
      const losses: string[] = [];
      let sqliteLost = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const dir = copyOfCrashed(`log-damage-${seed}`);
        try {
          const at = flipBytes(path.join(dir.dir, `${DB}-wal`), random);
          const gone = 65 - actionsSqliteReads(dir.dir);
          sqliteLost += gone;
          const { lost, repair } = await startAndCount(dir.dir, `seed ${seed}`);
          const count = lost.actions.length + lost.values.length + lost.extra.length;
          const said = repair ? `said: ${repair.cause}` : 'nothing said';
          if (count > 0)
            losses.push(
              `seed ${seed} (bytes ${at.join(', ')}): ${lost.actions.length} session(s) ` +
                `and ${lost.values.length} value(s) short (${said})`,
            );
          // What SQLite alone would have dropped was put back from the journal, and said.
          if (gone > 0 && !(repair && (repair.restored.outbox ?? 0) >= gone))
            losses.push(`seed ${seed}: SQLite dropped ${gone} action(s), ${said}`);
        } finally {
          dir.remove();
        }
      }
      expect(losses).toEqual([]);
      // The seeds reach the work: without the journal, they would lose actions.
      expect(sqliteLost).toBeGreaterThan(SEEDS * 5);
    },
  );
});

describe('a write-ahead log deleted after a kill', () => {
  it('loses no acknowledged action or value, and says the log was missing', { timeout: 120_000 }, async () => {
    const dir = copyOfCrashed('log-deleted');
    try {
      fs.rmSync(path.join(dir.dir, `${DB}-wal`));
      const { lost, repair } = await startAndCount(dir.dir, 'deleted log');
      expect(lost).toEqual({ actions: [], values: [], extra: [] });
      expect(repair?.cause).toMatch(/write-ahead log|earlier state/);
      expect(repair?.restored.outbox).toBe(65);
    } finally {
      dir.remove();
    }
  });
});
