import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartupError } from '../../electron/core/services.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { formGuideOnSite } from '../helpers/worklog.ts';

// A data folder that cannot be used, or a database found damaged at start (issue 13): a clear message
// naming the folder and the cause; the damaged file moved aside, never deleted; every queued action a
// plain SQLite connection can still read recovered into a fresh database; the library synced again. What
// the damage took of the work is put back from the work journal (issue 24): every queued action is there.
const root = path.resolve(import.meta.dirname, '../..');
const DB = 'fieldguide.sqlite';
let site: RunningSite;
let proxy: FaultProxy;
let guideid: number;
/** A data folder as a crash leaves it: the database and its write-ahead log, nothing checkpointed. */
let live: ReturnType<typeof makeTempDir>;
/** The same folder after a clean close: everything in the database file, no log. */
let clean: ReturnType<typeof makeTempDir>;
let queued: number[];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  guideid = await formGuideOnSite(site.apiUrl, (await signIn(site, 'admin')).token);
  [live, clean] = [makeTempDir('damage-live'), makeTempDir('damage-clean')];
  const app = makeServices(clean.dir, { requestTimeoutMs: 60_000 });
  const api = app.services.api;
  unwrap(
    await api.signIn({ siteUrl: proxy.url, email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  );
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  expect(unwrap(await api.syncNow()).status).toBe('complete');
  // The site never answers: the outbox's first tries stay out, and nothing of its own commits after the work
  // (the last action is the log's last commit; an answer waits for flushes on the thread pool, during which
  // a replay refused at once committed its record after it).
  proxy.setSchedule(always({ kind: 'stall', ms: 30_000 }));
  // Enough actions for the outbox to span several pages.
  for (let i = 0; i < 25; i++) {
    const session = unwrap(await api.startSession({ guideid, workorderid: `DAMAGE-${i}-${'x'.repeat(60)}` }));
    for (const transition of ['pause', 'resume'] as const)
      unwrap(await api.transitionSession({ sessionId: session.id, transition }));
  }
  queued = unwrap(await api.getOutbox()).actions.map((a) => a.id);
  expect(queued).toHaveLength(75);
  // What a crash would leave: the files as they are while the app runs (the log's index, -shm, is rebuilt).
  fs.cpSync(clean.dir, live.dir, { recursive: true });
  fs.rmSync(path.join(live.dir, `${DB}-shm`), { force: true });
  await app.services.close();
  proxy.passAll();
  expect(fs.statSync(path.join(live.dir, `${DB}-wal`)).size).toBeGreaterThan(0);
  expect(fs.existsSync(path.join(clean.dir, `${DB}-wal`))).toBe(false);
}, 60_000);
afterAll(async () => {
  live?.remove();
  clean?.remove();
  await proxy?.close();
  await site?.close();
});

function copyOf(template: ReturnType<typeof makeTempDir>, name: string): ReturnType<typeof makeTempDir> {
  const dir = makeTempDir(name);
  fs.cpSync(template.dir, dir.dir, { recursive: true });
  return dir;
}

/** The outbox ids a plain SQLite connection can still read from these files, one row at a time (on a copy). */
function readableIds(dir: string): number[] {
  const probe = makeTempDir('damage-probe');
  try {
    for (const suffix of ['', '-wal'])
      if (fs.existsSync(path.join(dir, DB + suffix)))
        fs.copyFileSync(path.join(dir, DB + suffix), path.join(probe.dir, DB + suffix));
    const db = new Database(path.join(probe.dir, DB));
    const found = queued.filter((id) => {
      try {
        return db.prepare('SELECT id, payload FROM outbox WHERE id = ?').get(id) !== undefined;
      } catch {
        return false;
      }
    });
    db.close();
    return found;
  } finally {
    probe.remove();
  }
}

/** A leaf page of a table (its second when it has several), and the page size: read while no app holds the file. */
function leafPageOf(file: string, table: string): { page: number; size: number } {
  const db = new Database(file, { readonly: true });
  const pages = db
    .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno")
    .pluck()
    .all(table) as number[];
  const size = db.pragma('page_size', { simple: true }) as number;
  db.close();
  expect(pages.length, `${table} has pages`).toBeGreaterThan(0);
  return { page: pages[Math.min(1, pages.length - 1)]!, size };
}

/** Overwrites a page with random bytes, as bytes (no SQLite: the app may hold the file). */
function overwritePage(file: string, { page, size }: { page: number; size: number }): void {
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, crypto.randomBytes(size), 0, size, (page - 1) * size);
  fs.closeSync(fd);
}

function damagePageOf(file: string, table: string): void {
  overwritePage(file, leafPageOf(file, table));
}

/** Starts the app on a damaged folder: it says so, keeps the damaged file and recovers what can be read. */
async function startRepaired(dir: string, expected: number[], cause: RegExp) {
  const app = makeServices(dir);
  const state = unwrap(await app.services.api.getSyncState());
  expect(state.repair, 'the technician is told').not.toBeNull();
  expect(state.repair!.cause).toMatch(cause);
  expect(fs.existsSync(state.repair!.movedTo), 'the damaged file is kept aside').toBe(true);
  const actions = unwrap(await app.services.api.getOutbox()).actions.map((a) => a.id);
  expect(actions).toEqual(expect.arrayContaining(expected));
  if (state.repair!.kind === 'salvaged') {
    expect(app.logs.some((line) => line.includes('The database was damaged'))).toBe(true);
    // Every action is one the damaged file gave, or one the work journal put back.
    expect((state.repair!.recovered.outbox ?? 0) + (state.repair!.restored.outbox ?? 0)).toBe(actions.length);
    // The library is synced again in full: no cursor carried over.
    expect(state.lastSyncAt).toBeNull();
  }
  return { app, state, actions };
}

describe('a data folder that cannot be used', () => {
  it('is a clear start-up error naming the folder and the cause: missing (a file in the way) and read-only', () => {
    const dir = makeTempDir('unusable');
    try {
      const blocked = path.join(dir.dir, 'a-file', 'data');
      fs.writeFileSync(path.join(dir.dir, 'a-file'), 'not a folder');
      expect(() => makeServices(blocked)).toThrow(StartupError);
      expect(() => makeServices(blocked)).toThrow(
        `Fieldguide cannot make its data folder ${blocked}: a file is in the way of the folder`,
      );

      const readOnly = path.join(dir.dir, 'ro');
      fs.mkdirSync(readOnly);
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', readOnly]).status === 0;
      if (!mounted) {
        console.warn('skipped the read-only folder: mounting a tmpfs is not permitted here (run the tests as root)');
        return;
      }
      try {
        fs.cpSync(clean.dir, readOnly, { recursive: true, filter: (src) => !src.includes('media') });
        execFileSync('mount', ['-o', 'remount,ro', readOnly]);
        // Words a technician can act on: the cause in plain words, the work kept, what to do; no "EROFS" nor
        // the path of the file it tried, no folder to choose (the app offers none).
        expect(() => makeServices(readOnly)).toThrow(
          `Fieldguide cannot write in its data folder ${readOnly}: the folder is on a read-only disk. ` +
            'Your work in it is kept. Restart the computer;',
        );
        expect(() => makeServices(readOnly)).not.toThrow(/EROFS|write-check|Choose a folder/);
        // The web shell says it and exits: no stack trace.
        const web = spawnSync(
          process.execPath,
          ['--import', 'tsx', path.join(root, 'electron/web/cli.ts'), '--data-dir', readOnly, '--port', '0'],
          { cwd: root, encoding: 'utf8', timeout: 30_000 },
        );
        expect(web.status).toBe(1);
        expect(web.stderr).toContain(
          `Fieldguide cannot start: Fieldguide cannot write in its data folder ${readOnly}: ` +
            `the folder is on a read-only disk`,
        );
        expect(web.stderr).not.toMatch(/^\s+at /m);
      } finally {
        if (spawnSync('umount', [readOnly]).status !== 0) execFileSync('umount', ['-l', readOnly]);
      }
    } finally {
      dir.remove();
    }
  }, 60_000);
});

describe('a database damaged before start', () => {
  it('an empty database file: said, set aside, the work put back from the work journal', async () => {
    const dir = copyOf(clean, 'damage-empty');
    try {
      fs.truncateSync(path.join(dir.dir, DB), 0);
      const { app, state } = await startRepaired(dir.dir, queued, /^the database file is empty/);
      expect(state.repair).toMatchObject({ kind: 'salvaged', restored: { outbox: queued.length, technicians: 1 } });
      expect(fs.statSync(state.repair!.movedTo).size).toBe(0);
      await app.services.close();
    } finally {
      dir.remove();
    }
  });

  it('an empty database file and no work journal: said, set aside, started afresh', async () => {
    const dir = copyOf(clean, 'damage-empty-alone');
    try {
      fs.truncateSync(path.join(dir.dir, DB), 0);
      fs.rmSync(path.join(dir.dir, 'fieldguide.journal'));
      const app = makeServices(dir.dir);
      const repair = unwrap(await app.services.api.getSyncState()).repair;
      expect(repair).toMatchObject({ cause: 'the database file is empty', restored: {} });
      expect(repair!.unreadable).toEqual(['the whole file']);
      expect(fs.statSync(repair!.movedTo).size).toBe(0);
      await app.services.close();
    } finally {
      dir.remove();
    }
  });

  it('an empty database file beside a write-ahead log: every action the log holds is recovered', async () => {
    const dir = copyOf(live, 'damage-empty-wal');
    try {
      const walBytes = fs.statSync(path.join(dir.dir, `${DB}-wal`)).size;
      fs.truncateSync(path.join(dir.dir, DB), 0);
      const { app, state } = await startRepaired(dir.dir, queued, /empty but its write-ahead log holds/);
      expect(fs.statSync(`${state.repair!.movedTo}-wal`).size).toBe(walBytes);
      await app.services.close();
    } finally {
      dir.remove();
    }
  });

  it('a log cut into its last commit: said, the log kept aside, the commit put back, no re-sync', async () => {
    const dir = copyOf(live, 'damage-torn-wal');
    try {
      const wal = path.join(dir.dir, `${DB}-wal`);
      fs.truncateSync(wal, fs.statSync(wal).size - 1000);
      const cutBytes = fs.statSync(wal).size;
      // SQLite alone reads the log up to its last whole commit: the last action is gone from it.
      expect(readableIds(dir.dir).length).toBeLessThan(queued.length);
      const { app, state } = await startRepaired(dir.dir, queued, /write-ahead log is cut short/);
      expect(state.repair).toMatchObject({ kind: 'restored', restored: { outbox: 1 } });
      expect(fs.statSync(state.repair!.movedTo).size).toBe(cutBytes);
      // A crash mid-write is no reason to download the library again.
      expect(state.lastSyncAt).not.toBeNull();
      await app.services.close();
    } finally {
      dir.remove();
    }
  });

  it('a write-ahead log ending in half a write: said as an unfinished save, nothing lost, no re-sync', async () => {
    const dir = copyOf(live, 'damage-half-write');
    try {
      const wal = path.join(dir.dir, `${DB}-wal`);
      fs.appendFileSync(wal, crypto.randomBytes(1000));
      const { app, state } = await startRepaired(dir.dir, queued, /write-ahead log is cut short/);
      expect(state.repair).toMatchObject({ kind: 'log-cut', restored: {} });
      expect(state.lastSyncAt).not.toBeNull();
      await app.services.close();
    } finally {
      dir.remove();
    }
  });

  it('random bytes in a library page: the work is all recovered and the library synced again', async () => {
    const dir = copyOf(clean, 'damage-library');
    try {
      damagePageOf(path.join(dir.dir, DB), 'guides');
      const { app } = await startRepaired(dir.dir, queued, /check/);
      const api = app.services.api;
      expect(unwrap(await api.getSyncState()).guides.total).toBe(0);
      expect(unwrap(await api.syncNow()).status).toBe('complete');
      expect(unwrap(await api.getGuide(guideid)).guideid).toBe(guideid);
      expect(unwrap(await api.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });
      await app.services.close();
      const db = new Database(path.join(dir.dir, DB));
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } finally {
      dir.remove();
    }
  });

  it('random bytes in an outbox page: readable actions recovered, the rest put back from the journal', async () => {
    const dir = copyOf(clean, 'damage-outbox');
    try {
      damagePageOf(path.join(dir.dir, DB), 'outbox');
      const readable = readableIds(dir.dir);
      expect(readable.length).toBeGreaterThan(0);
      expect(readable.length).toBeLessThan(queued.length);
      const { app, state } = await startRepaired(dir.dir, queued, /check/);
      const restored = queued.length - readable.length;
      expect(state.repair).toMatchObject({ recovered: { outbox: readable.length }, restored: { outbox: restored } });
      // The journal named every action: none is said to be missing.
      expect(state.repair!.unreadable).not.toContain('outbox');
      await app.services.close();
    } finally {
      dir.remove();
    }
  });
});

describe('a damaged database of the version before the work journal', () => {
  it('is salvaged and upgraded with its unsent work as it was, none of it set aside as damaged', async () => {
    const dir = makeTempDir('damage-legacy');
    try {
      fs.cpSync(path.resolve(import.meta.dirname, 'fixtures', 'legacy', 'signed-in'), dir.dir, { recursive: true });
      const file = path.join(dir.dir, DB);
      const before = new Database(file, { readonly: true });
      const unsent = (before.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
      before.close();
      expect(unsent).toBeGreaterThan(0);
      damagePageOf(file, 'guides');
      const app = makeServices(dir.dir);
      try {
        const state = unwrap(await app.services.api.getSyncState());
        expect(state.repair).toMatchObject({ kind: 'salvaged', recovered: { outbox: unsent } });
        expect(state.repair!.unreadable.filter((part) => part.includes('damaged on the disk'))).toEqual([]);
        const actions = unwrap(await app.services.api.getOutbox()).actions;
        expect(actions.filter((a) => a.state === 'failed')).toEqual([]);
      } finally {
        await app.services.close();
      }
    } finally {
      dir.remove();
    }
  });
});

describe('a database damaged while the app runs', () => {
  it('answers with what to do, and the next start checks it in full and repairs it', async () => {
    const dir = copyOf(clean, 'damage-running');
    try {
      const page = leafPageOf(path.join(dir.dir, DB), 'guides');
      const app = makeServices(dir.dir);
      // Behind the app's back, after its start-up check: a page of the library no read has cached yet.
      overwritePage(path.join(dir.dir, DB), page);
      const damaged = {
        ok: false,
        error: { code: 'internal', message: expect.stringContaining('Restart Fieldguide') },
      };
      expect(await app.services.api.listGuides({ offset: 0, limit: 50 })).toMatchObject(damaged);
      // A sync meets it too, and says the same rather than failing guide by guide.
      expect(await app.services.api.syncNow()).toMatchObject(damaged);
      expect(app.logs.some((line) => line.includes('checked and repaired at the next start'))).toBe(true);
      await app.services.close();
      const { app: again } = await startRepaired(dir.dir, queued, /check/);
      await again.services.close();
    } finally {
      dir.remove();
    }
  });
});
