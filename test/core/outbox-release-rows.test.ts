import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServicesDeps } from '../../electron/core/services.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { auditOf } from '../helpers/technicians.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// A database of the release before the outbox became generic (schema 15; made by that version, see
// fixtures/release-0015/make-release-database.ts): a row of every kind it queued waits, unsent, the hidden
// check for a second copy of a start too. Opened by this version, every row is read by the kind that
// registered it and replays to the reference site; nothing is set aside as unreadable.
const FIXTURE = path.resolve(import.meta.dirname, 'fixtures', 'release-0015', 'queued');
const KINDS = [
  'start',
  'stepData',
  'upload',
  'stepData',
  'pause',
  'resume',
  'suspend',
  'assume',
  'finish',
  'start',
  'cancel',
  'quizAttempt',
  'doubles',
];

let tmp: ReturnType<typeof makeTempDir> | null = null;
let site: RunningSite | null = null;
let app: ReturnType<typeof makeServices> | null = null;
afterEach(async () => {
  await app?.services.close();
  await site?.close();
  tmp?.remove();
  [app, site, tmp] = [null, null, null];
});

const demoWithAudit: ServicesDeps['startDemoWorkshop'] = async () => {
  const { startTestSite } = await import('../server/helpers.ts');
  site = await startTestSite({ demo: true });
  const running = site;
  return {
    url: running.url,
    account: { email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password },
    close: async () => undefined,
  };
};

describe('a database of the last release with a row of every kind queued', () => {
  it('opens, and every row replays to the site: sessions, the upload, the quiz attempt, the check', async () => {
    tmp = makeTempDir('release-0015');
    fs.cpSync(FIXTURE, tmp.dir, { recursive: true });
    const file = path.join(tmp.dir, 'fieldguide.sqlite');
    const before = new Database(file, { readonly: true });
    expect(before.pragma('user_version', { simple: true })).toBe(15);
    expect(
      (before.prepare('SELECT kind FROM outbox ORDER BY id').all() as { kind: string }[]).map((r) => r.kind),
    ).toEqual(KINDS);
    const sessions = before.prepare('SELECT id, workorderid FROM work_sessions ORDER BY workorderid').all() as {
      id: string;
      workorderid: string;
    }[];
    before.close();

    app = makeServices(tmp.dir, { startDemoWorkshop: demoWithAudit });
    const { api } = app.services;
    await app.services.start();
    unwrap(await api.connectDemo());
    for (let i = 0; i < 10; i++) {
      const summary = unwrap(await api.flushOutbox());
      if (summary.pending + summary.inFlight === 0) break;
    }
    expect(unwrap(await api.getOutbox())).toMatchObject({
      summary: { pending: 0, inFlight: 0, failed: 0, conflicts: 0, others: [], heldAside: 0 },
      actions: [],
    });
    expect(app.logs.filter((line) => /could not be read|set aside|unknown action/.test(line))).toEqual([]);

    const [finished, cancelled] = await Promise.all(sessions.map(({ id }) => api.getSession(id).then(unwrap)));
    expect(finished).toMatchObject({ workorderid: 'WO-RELEASE-1', status: 'complete', pendingActions: 0 });
    expect(finished!.entryid).not.toBeNull();
    expect(cancelled).toMatchObject({ workorderid: 'WO-RELEASE-2', status: 'cancelled' });
    expect(cancelled!.entryid).not.toBeNull();
    const paths = (await auditOf(site!, 'work_log'))
      .filter((a) => a.entity_id === String(finished!.entryid))
      .map((a) => `${a.method} ${a.path.replace(/^.*\/work_log\/\d+/, '')}`);
    for (const step of ['pause', 'resume', 'suspend', 'assume', 'finish'])
      expect(paths, step).toContain(`POST /${step}`);
    const [attempt] = unwrap(await api.listQuizAttempts({}));
    expect(attempt?.siteAttemptid).not.toBeNull();
    expect(await auditOf(site!, 'quiz_attempt')).toHaveLength(1);
    const photo = finished!.values.find((value) => value.attachment);
    expect(photo?.attachment).toMatchObject({ uploaded: true });

    await app.services.close();
    app = null;
    const after = new Database(file, { readonly: true });
    // The check for a second copy went too: no row of the release is left, background or not (a check the
    // replay queued anew after a start that got no answer in time may wait; it is not one of them).
    const left = after.prepare('SELECT id, kind FROM outbox WHERE id <= ?').all(KINDS.length);
    expect(left).toEqual([]);
    after.close();
  });
});
