import fs from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { expect } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { api } from '../server/helpers.ts';
import { allLocalGuides, mediaOf, unwrap } from './library.ts';
import type { makeServices } from './services.ts';
import { makeTempDir } from './tmp.ts';

/** The server's public guides: id → revision. */
export async function serverRevisions(site: RunningSite): Promise<Map<number, number>> {
  const all = new Map<number, number>();
  for (let offset = 0; ; offset += 200) {
    const page = (await api(site, 'GET', '/guides', { query: { limit: 200, offset } })).body as {
      guideid: number;
      revisionid: number;
    }[];
    for (const guide of page) all.set(guide.guideid, guide.revisionid);
    if (page.length < 200) return all;
  }
}

/**
 * The library equals the server: the same guides at the same revisions, each stored whole, every media
 * file they need on disk with its recorded length, and the database intact.
 */
export async function expectLibraryEqualsServer(
  app: ReturnType<typeof makeServices>,
  site: RunningSite,
  label: string,
  /** The guides chosen for offline use, when not all of them: the others are listed as summaries. */
  whole?: readonly number[],
): Promise<void> {
  const expected = await serverRevisions(site);
  const local = await allLocalGuides(app.services.api);
  expect(
    local.map((g) => g.guideid).sort((a, b) => a - b),
    label,
  ).toEqual([...expected.keys()].sort((a, b) => a - b));
  for (const { guideid, offline } of local) {
    const chosen = whole === undefined || whole.includes(guideid);
    expect(offline, `${label}: guide ${guideid}`).toBe(chosen ? 'full' : 'summary');
    if (!chosen) continue;
    const guide = unwrap(await app.services.api.getGuide(guideid));
    expect(guide.revisionid, `${label}: guide ${guideid}`).toBe(expected.get(guideid));
    for (const url of mediaOf(guide)) expect(app.services.resolveMedia(url), `${label}: ${url}`).not.toBeNull();
  }
  const state = unwrap(await app.services.api.getSyncState());
  expect(state.storage.pendingMedia, label).toBe(0);
  expectDatabasesIntact(app.dataDir, label);
}

/**
 * `PRAGMA integrity_check` of the library database and of the pictures database beside it, on copies of
 * their files: the app holds its database alone while it runs (db/open.ts).
 */
export function expectDatabasesIntact(dataDir: string, label: string): void {
  const copy = makeTempDir('intact');
  const copied = (file: string): string | null => {
    if (!fs.existsSync(file)) return null;
    const to = path.join(copy.dir, path.basename(file));
    for (const suffix of ['', '-wal']) if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, to + suffix);
    return to;
  };
  const db = new Database(copied(path.join(dataDir, 'fieldguide.sqlite'))!);
  try {
    const pictures = copied(path.join(dataDir, 'media', 'pictures.sqlite'));
    if (pictures) db.prepare('ATTACH DATABASE ? AS pictures').run(pictures);
    expect(db.pragma('integrity_check', { simple: true }), label).toBe('ok');
    if (pictures) expect(db.pragma('pictures.integrity_check', { simple: true }), `${label}: pictures`).toBe('ok');
  } finally {
    db.close();
    copy.remove();
  }
}
