import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, FolderInUseError } from '../../electron/core/services.ts';
import { plainCodec } from '../../electron/core/connection/secret-store.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoWorkshop } from '../../server/demo-workshop.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { formGuideOnSite } from '../helpers/worklog.ts';

// One writer per data folder (issue 13): a second copy is refused, naming the folder and the holder; the
// lock goes with its process, however it ends.
const root = path.resolve(import.meta.dirname, '../..');
const lockChild = path.join(root, 'test/helpers/lock-child.ts');
const startChild = path.join(root, 'test/helpers/start-child.ts');
const raceChild = path.join(root, 'test/helpers/race-child.ts');
const webCli = path.join(root, 'electron/web/cli.ts');
let site: RunningSite;
let proxy: FaultProxy;
let guideid: number;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  guideid = await formGuideOnSite(site.apiUrl, (await signIn(site, 'admin')).token);
});
afterAll(async () => {
  await proxy?.close();
  await site?.close();
});

const second = (dataDir: string) =>
  createServices({
    dataDir,
    version: '0.0.0-test',
    secretCodec: plainCodec,
    startDemoWorkshop,
    autoSync: false,
    log: () => {},
  });

/** A second copy is refused, naming the child that holds the folder (`mode`: lock-child.ts); then it is killed. */
async function refusedWhileHeld(dataDir: string, mode: 'hold' | 'forgotten'): Promise<void> {
  const held = await startProcess([lockChild, dataDir, mode], /^ready /);
  try {
    const pid = Number(held.line.slice('ready '.length));
    expect(() => second(dataDir)).toThrow(`process ${pid}`);
  } finally {
    held.proc.kill('SIGKILL');
    await held.exit;
  }
}

/** Starts a process and answers once it printed a line matching `ready` (or ended). */
function startProcess(
  args: string[],
  ready: RegExp,
): Promise<{
  proc: ChildProcess;
  line: string;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}> {
  const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let [stdout, stderr] = ['', ''];
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no "${ready}" within 30 s: ${stdout} ${stderr}`));
    }, 30_000);
    const done = (line: string) => {
      clearTimeout(guard);
      resolve({ proc, line, stdout: () => stdout, stderr: () => stderr, exit });
    };
    proc.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => ready.test(l));
      if (line) done(line);
    });
    proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exit.then(() => done(''));
  });
}

describe('one copy per data folder', () => {
  it('refuses a second services on the same folder, naming it and the holder; the work is applied once', async () => {
    const dir = makeTempDir('lock-two');
    const first = makeServices(dir.dir);
    try {
      const refusal = (() => {
        try {
          second(first.dataDir).close();
          return null;
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toBeInstanceOf(FolderInUseError);
      expect((refusal as Error).message).toContain(first.dataDir);
      expect((refusal as Error).message).toContain(`process ${process.pid}`);

      // Work queued offline by the holder is replayed once, by the holder only.
      const api = first.services.api;
      unwrap(
        await api.signIn({
          siteUrl: proxy.url,
          email: DEMO_ACCOUNTS.tech1.email,
          password: DEMO_ACCOUNTS.tech1.password,
        }),
      );
      unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
      expect(unwrap(await api.syncNow()).status).toBe('complete');
      proxy.setSchedule(always({ kind: 'reset' }));
      const sessions = [];
      for (let i = 0; i < 3; i++) {
        const session = unwrap(await api.startSession({ guideid, workorderid: `LOCK-${i}` }));
        for (const transition of ['pause', 'resume', 'finish'] as const)
          unwrap(await api.transitionSession({ sessionId: session.id, transition }));
        sessions.push(session.id);
      }
      proxy.passAll();
      expect(() => second(first.dataDir)).toThrow(FolderInUseError);
      expect(unwrap(await api.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });
      const entryids = await Promise.all(sessions.map(async (id) => String(unwrap(await api.getSession(id)).entryid)));
      await first.services.close();

      // The folder is free once its holder closed: a later copy finds nothing left to send.
      const later = makeServices(first.dataDir);
      expect(unwrap(await later.services.api.flushOutbox())).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
      await later.services.close();
      const applied = await audit(site, 'work_log');
      for (const entryid of entryids) {
        const mine = applied.filter((a) => a.entity_id === entryid);
        expect(
          mine.filter((a) => a.method === 'POST' && /\/work_log$/.test(a.path)),
          `${entryid} created once`,
        ).toHaveLength(1);
        for (const transition of ['pause', 'resume', 'finish'])
          expect(
            mine.filter((a) => a.path.endsWith(`/${transition}`)),
            `${entryid} ${transition}`,
          ).toHaveLength(1);
      }
    } finally {
      dir.remove();
    }
  });

  it('is released when its process exits without closing, and when it is SIGKILLed', async () => {
    const dir = makeTempDir('lock-kill');
    try {
      const exited = await startProcess([lockChild, dir.dir, 'exit'], /^ready /);
      expect(await exited.exit).toBe(0);
      second(dir.dir).close();

      await refusedWhileHeld(dir.dir, 'hold');
      // The OS dropped the dead process's lock: the folder opens at once, no stale lock to clear by hand.
      second(dir.dir).close();
    } finally {
      dir.remove();
    }
  }, 60_000);

  it('holds for the life of its process, whatever the process keeps a reference to', async () => {
    // The lock was the object's: a copy that no longer referred to its services (and whose timers did not)
    // lost it to the garbage collector, and a second copy was let in (seen twice in CI as a second copy
    // taking the lock file and then meeting the first's database).
    const dir = makeTempDir('lock-forgotten');
    try {
      await refusedWhileHeld(dir.dir, 'forgotten');
    } finally {
      dir.remove();
    }
  }, 60_000);

  it('holds the database itself: with the lock file deleted, a second copy is still refused (issue 24)', async () => {
    const dir = makeTempDir('lock-deleted');
    try {
      const app = makeServices(dir.dir);
      const { email, password } = DEMO_ACCOUNTS.tech1;
      unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
      unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      await app.services.close();
      // The site answers slowly: the first copy's starts stay in flight while the second one tries.
      proxy.setSchedule(always({ kind: 'delay', ms: 4000 }));
      const first = await startProcess([startChild, dir.dir, String(guideid), '3'], /^req 3$/);
      try {
        for (const file of ['fieldguide.lock', 'fieldguide.lock.json']) fs.rmSync(path.join(dir.dir, file));
        const refusal = (() => {
          try {
            second(dir.dir).close();
            return null;
          } catch (error) {
            return error;
          }
        })();
        expect(refusal).toBeInstanceOf(FolderInUseError);
        expect((refusal as Error).message).toContain(dir.dir);
        const done = await new Promise<string>((resolve) => {
          const check = () => (/^done /m.test(first.stdout()) ? resolve(first.stdout()) : setTimeout(check, 100));
          check();
        });
        expect(done).toMatch(/^done 0$/m);
      } finally {
        first.proc.kill('SIGKILL');
        await first.exit;
        proxy.passAll();
      }
      // Once the first copy is gone, a copy opens the folder: nothing was left in flight, nothing goes twice.
      const later = makeServices(dir.dir);
      expect(unwrap(await later.services.api.flushOutbox())).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
      const sessions = unwrap(await later.services.api.listSessions({}));
      await later.services.close();
      expect(sessions).toHaveLength(3);
      const tech = await signIn(site, 'tech1');
      for (const session of sessions) {
        const query = { workorderid: session.workorderid, guideid };
        const listed = await api(site, 'GET', '/work_log', { token: tech.token, query });
        const entries = (listed.body as { results: { entryid: number }[] }).results.map((e) => e.entryid);
        expect(entries, `${session.workorderid}: one entry on the site`).toEqual([session.entryid]);
      }
    } finally {
      dir.remove();
    }
  }, 60_000);

  it("waits out another start's brief hold of the lock file, not refusing (issue 24: two starts at once)", async () => {
    const dir = makeTempDir('lock-race');
    const racer = spawn(process.execPath, ['--import', 'tsx', raceChild], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      let said = '';
      const answered = new Promise<string>((resolve) =>
        racer.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()).includes('\n') && resolve(said)),
      );
      const at = Date.now() + 4000;
      racer.stdin.write(`race ${dir.dir} ${at} 0\n`);
      // Another start holding the lock file at that instant, for a moment (it then finds itself second, and lets go).
      const other = new Database(path.join(dir.dir, 'fieldguide.lock'));
      other.pragma('locking_mode = EXCLUSIVE');
      other.exec('BEGIN EXCLUSIVE');
      setTimeout(() => other.close(), at + 300 - Date.now());
      expect(await answered).toMatch(/^won /);
    } finally {
      racer.kill('SIGKILL');
      dir.remove();
    }
  }, 60_000);

  it('makes a second web shell on the same folder exit with the reason, not a stack trace', async () => {
    const dir = makeTempDir('lock-web');
    const first = await startProcess([webCli, '--data-dir', dir.dir, '--port', '0'], /web shell\) at/);
    try {
      expect(first.line).toContain(dir.dir);
      const other = await startProcess([webCli, '--data-dir', dir.dir, '--port', '0'], /web shell\) at/);
      if (other.line !== '') other.proc.kill('SIGTERM');
      expect(await other.exit).toBe(1);
      expect(other.line).toBe('');
      expect(other.stderr()).toContain(
        `Fieldguide is already running on the data folder ${dir.dir} (process ${first.proc.pid}`,
      );
      expect(other.stderr()).not.toMatch(/^\s+at /m);
    } finally {
      first.proc.kill('SIGTERM');
      await first.exit;
      dir.remove();
    }
  }, 60_000);
});
