import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { mulberry32 } from '../fault/proxy.ts';
import { startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { crossLinkPicture } from '../helpers/picture-pages.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { seedCount, seedStart } from '../helpers/seeds.ts';

// Media are named by the SHA-256 of their content (issue 24, item 7): damage to the pictures database or
// to a stored file is found, never served, and repaired by downloading again; the sync never asks for a
// restart that would repair nothing. A synced data folder is copied for each seed, then damaged.
const SEEDS = seedCount(10, 4);
let site: RunningSite;
let golden: ReturnType<typeof makeTempDir>;
const copies: ReturnType<typeof makeTempDir>[] = [];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  golden = makeTempDir('media-golden');
  const app = makeServices(golden.dir);
  await signInAndSync(app.services, site.url);
  await app.dispose();
});
afterAll(async () => {
  await site?.close();
  golden?.remove();
  for (const copy of copies) copy.remove();
});

type Stored = { url: string; file: string; bytes: number };

/** The media the index says are stored: each URL and the content name it is kept under. */
function storedMedia(dataDir: string): Stored[] {
  const db = new Database(path.join(dataDir, 'fieldguide.sqlite'), { readonly: true });
  try {
    return db.prepare("SELECT url, file, bytes FROM media WHERE status = 'done'").all() as Stored[];
  } finally {
    db.close();
  }
}

function copyOfGolden(): string {
  const copy = makeTempDir('media-damage');
  copies.push(copy);
  fs.cpSync(golden.dir, copy.dir, { recursive: true });
  return copy.dir;
}

/** Flips `count` bytes at seeded places past the first pages of `file`. */
function flipDeep(file: string, seed: number, count: number): void {
  const random = mulberry32(seed);
  const bytes = fs.readFileSync(file);
  const from = Math.min(64 * 1024, Math.floor(bytes.length / 4));
  for (let i = 0; i < count; i++) {
    const at = from + Math.floor(random() * (bytes.length - from));
    bytes[at] = bytes[at]! ^ (1 + Math.floor(random() * 255));
  }
  fs.writeFileSync(file, bytes);
}

const nameOf = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Every stored URL asked of the media route: how many answers were damaged, intact, or nothing. */
async function serveAll(app: ReturnType<typeof makeServices>, media: Stored[]) {
  const counts = { damaged: 0, intact: 0, none: 0, errors: 0 };
  for (const { url } of media) {
    let answer;
    try {
      answer = await app.services.openMedia({ urls: [url], live: false });
    } catch {
      counts.errors++;
      continue;
    }
    if (!answer) {
      counts.none++;
      continue;
    }
    const data = answer.data ?? fs.readFileSync(answer.path!);
    const expected = media.find((m) => m.url === url)!.file.slice(0, 64);
    if (nameOf(data) === expected) counts.intact++;
    else counts.damaged++;
  }
  return counts;
}

describe('a damaged pictures database', () => {
  it(`never serves a damaged picture, and a sync repairs it without a restart (${SEEDS} seeds)`, async () => {
    const media = storedMedia(golden.dir);
    expect(media.length).toBeGreaterThan(100);
    let setAside = 0;
    // Which seeds hit the database's own pages depends on where this run's sync put them: past the given
    // seeds, more run (at most 20) until one has (the quick tier's 4 seeds sometimes hit pictures only).
    const first = seedStart(1);
    for (let seed = first; seed < first + SEEDS || (setAside === 0 && seed < first + SEEDS + 20); seed++) {
      const dataDir = copyOfGolden();
      flipDeep(path.join(dataDir, 'media', 'pictures.sqlite'), seed, 60);
      const app = makeServices(dataDir);
      const sync = async (): Promise<string> => {
        const outcome = await app.services.api.syncNow();
        return outcome.ok ? outcome.value.status : outcome.error.message;
      };
      try {
        // Half the seeds meet the damage in a sync first, half in the pictures served first.
        const first = seed % 2 === 0 ? await sync() : 'not yet';
        const served = await serveAll(app, media);
        const syncs = [first, await sync(), await sync()].filter((status) => status !== 'not yet');
        const after = await serveAll(app, media);
        expect({ seed, damaged: served.damaged, errors: served.errors }).toEqual({ seed, damaged: 0, errors: 0 });
        expect({ seed, syncs: [...new Set(syncs)] }).toEqual({ seed, syncs: ['complete'] });
        expect({ seed, after }).toEqual({ seed, after: { damaged: 0, intact: media.length, none: 0, errors: 0 } });
        const names = fs.readdirSync(path.join(dataDir, 'media'));
        if (names.some((name) => name.startsWith('pictures.sqlite.damaged-'))) setAside++;
      } finally {
        await app.dispose();
      }
    }
    // The full check found the database itself damaged in some seeds (set aside, made again), not only pictures.
    expect(setAside).toBeGreaterThan(0);
  }, 300_000);
});

describe('a stored file whose bytes changed, its length the same', () => {
  it('is not served, and the next sync downloads it again', async () => {
    const dataDir = copyOfGolden();
    const media = storedMedia(dataDir);
    const onDisk = media.filter(({ file }) => fs.existsSync(path.join(dataDir, 'media', file)));
    expect(onDisk.length).toBeGreaterThan(0);
    const victim = onDisk[0]!;
    flipDeep(path.join(dataDir, 'media', victim.file), 7, 1);
    const app = makeServices(dataDir);
    try {
      const served = await serveAll(app, [victim]);
      expect(served).toMatchObject({ damaged: 0, errors: 0 });
      const outcome = await app.services.api.syncNow();
      expect(outcome.ok && outcome.value.status).toBe('complete');
      expect(await serveAll(app, [victim])).toEqual({ damaged: 0, intact: 1, none: 0, errors: 0 });
    } finally {
      await app.dispose();
    }
  }, 120_000);
});

describe('a picture whose page pointer was damaged, so that it names the pages of another', () => {
  // Found in CI (seed 2 of the test above): the picture read as wrong bytes and was dropped; deleting its row
  // freed the pages another picture still used, the download again wrote over them, and that picture was
  // then found broken after two syncs that said "complete" (the whole database set aside then).
  it('is not dropped before a full check: the database is set aside and the next sync repairs it', async () => {
    const dataDir = copyOfGolden();
    const media = storedMedia(dataDir);
    const { victim, holder } = crossLinkPicture(path.join(dataDir, 'media', 'pictures.sqlite'));
    const app = makeServices(dataDir);
    try {
      const served = await serveAll(app, media);
      expect(served).toMatchObject({ damaged: 0, errors: 0 });
      for (let i = 0; i < 2; i++) {
        const outcome = await app.services.api.syncNow();
        expect(outcome.ok && outcome.value.status).toBe('complete');
      }
      expect(await serveAll(app, media)).toEqual({ damaged: 0, intact: media.length, none: 0, errors: 0 });
      const names = fs.readdirSync(path.join(dataDir, 'media'));
      expect(names.some((name) => name.startsWith('pictures.sqlite.damaged-'))).toBe(true);
      expect(app.logs.join('\n')).not.toContain(`A stored picture (${victim})`);
      expect(holder).not.toBe(victim);
    } finally {
      await app.dispose();
    }
  }, 120_000);
});

describe('pictures indexed in the main database but not kept in the pictures one', () => {
  // In WAL mode SQLite commits a transaction over attached databases one file at a time (main first): a
  // crash or a kill between the two leaves media rows "done" whose pictures are not there (sync-kill found
  // it). This is that state, made by hand: the pictures of the first stored media deleted.
  it('are downloaded again by the next sync', async () => {
    const dataDir = copyOfGolden();
    const pictures = new Database(path.join(dataDir, 'media', 'pictures.sqlite'));
    let lost: Stored[];
    try {
      const kept = new Set(
        (pictures.prepare('SELECT name FROM picture').all() as { name: string }[]).map((r) => r.name),
      );
      lost = storedMedia(dataDir)
        .filter(({ file }) => kept.has(file))
        .slice(0, 10);
      expect(lost.length).toBe(10);
      const drop = pictures.prepare('DELETE FROM picture WHERE name = ?');
      for (const { file } of lost) drop.run(file);
    } finally {
      pictures.close();
    }
    const app = makeServices(dataDir);
    try {
      const outcome = await app.services.api.syncNow();
      expect(outcome.ok && outcome.value.status).toBe('complete');
      expect(await serveAll(app, lost)).toEqual({ damaged: 0, intact: lost.length, none: 0, errors: 0 });
      expect(unwrap(await app.services.api.getSyncState()).storage.pendingMedia).toBe(0);
    } finally {
      await app.dispose();
    }
  }, 120_000);
});
