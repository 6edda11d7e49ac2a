import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServicesDeps } from '../../electron/core/services.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { auditOf, expectOnSiteAs } from '../helpers/technicians.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { signIn, startTestSite } from '../server/helpers.ts';

// Databases written by the version before technicians were recorded (schema 5; made by that version, see
// fixtures/legacy/make-legacy-databases.ts): tech1's work of a whole offline session and a quiz attempt,
// unsent. The migration gives it to its maker, and it replays to the site as them. In `signed-out/` that
// version had forgotten who was signed in: the session still names its user, the quiz attempt does not,
// so it is held aside (kept, never sent under anyone's name) with words that say so.
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures', 'legacy');

let tmp: ReturnType<typeof makeTempDir> | null = null;
let site: RunningSite | null = null;
let app: ReturnType<typeof makeServices> | null = null;
afterEach(async () => {
  await app?.services.close();
  await site?.close();
  tmp?.remove();
  [app, site, tmp] = [null, null, null];
});

/** The demo workshop as the app starts it, with the site's audit log on. */
const demoWithAudit: ServicesDeps['startDemoWorkshop'] = async () => {
  site = await startTestSite({ demo: true });
  const running = site;
  return {
    url: running.url,
    account: { email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password },
    close: async () => undefined,
  };
};

function openCopy(variant: 'signed-in' | 'signed-out') {
  tmp = makeTempDir(`legacy-${variant}`);
  fs.cpSync(path.join(FIXTURES, variant), tmp.dir, { recursive: true });
  const before = new Database(path.join(tmp.dir, 'fieldguide.sqlite'), { readonly: true });
  expect(before.pragma('user_version', { simple: true })).toBe(5);
  const sessionId = (before.prepare('SELECT id FROM work_sessions').get() as { id: string }).id;
  const queued = (before.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
  before.close();
  app = makeServices(tmp.dir, { startDemoWorkshop: demoWithAudit });
  return { api: app.services.api, sessionId, queued };
}

async function drain(api: ReturnType<typeof openCopy>['api']) {
  for (let i = 0; i < 10; i++) {
    const summary = unwrap(await api.flushOutbox());
    if (summary.pending + summary.inFlight === 0) return summary;
  }
  return unwrap(await api.getOutbox()).summary;
}

describe('a database of the version before technicians', () => {
  it('migrates, gives the unsent work to the technician who was signed in, and it replays as them', async () => {
    const { api, sessionId, queued } = openCopy('signed-in');
    expect(queued).toBe(8);
    // Nobody's sign-in is kept (the earlier token is not in the fixture): tech1's work waits for tech1.
    expect(unwrap(await api.getStatus()).user).toBeNull();
    const [tech] = unwrap(await api.listTechnicians());
    expect(tech).toMatchObject({
      userid: 3,
      username: DEMO_ACCOUNTS.tech1.username,
      signIn: 'signed_out',
      unsent: 8,
      current: false,
    });

    await app!.services.start();
    unwrap(await api.connectDemo());
    const admin = await signIn(site!, 'admin');
    const status = unwrap(await api.getStatus());
    expect(status).toMatchObject({ user: { userid: 3 }, technician: { key: 'demo|3', earlierDrafts: true } });
    expect(await drain(api)).toMatchObject({
      pending: 0,
      inFlight: 0,
      failed: 0,
      conflicts: 0,
      others: [],
      heldAside: 0,
    });
    const session = unwrap(await api.getSession(sessionId));
    expect(session.entryid).not.toBeNull();
    const [attempt] = unwrap(await api.listQuizAttempts({}));
    await expectOnSiteAs(site!, admin.token, status.user!.userid, { session, transitions: 3 }, session, attempt!);
  });

  it(
    'after a sign-out there: the session replays as the user it names; ' +
      'the quiz attempt of nobody known is held aside, said, never sent',
    async () => {
      const { api, sessionId } = openCopy('signed-out');
      const [tech] = unwrap(await api.listTechnicians());
      expect(tech).toMatchObject({ userid: 3, signIn: 'signed_out', unsent: 7, current: false });
      expect(unwrap(await api.getOutbox()).summary).toMatchObject({
        pending: 0,
        others: [expect.objectContaining({ unsent: 7 })],
        heldAside: 1,
      });

      await app!.services.start();
      unwrap(await api.connectDemo());
      const admin = await signIn(site!, 'admin');
      const summary = await drain(api);
      expect(summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0, conflicts: 0, others: [], heldAside: 1 });
      // The technician's own name, learnt at sign-in, replaces the "User 3" the migration knew them by.
      expect(unwrap(await api.listTechnicians())[0]).toMatchObject({
        username: DEMO_ACCOUNTS.tech1.username,
        unsent: 0,
      });
      const session = unwrap(await api.getSession(sessionId));
      await expectOnSiteAs(site!, admin.token, 3, { session, transitions: 3 }, session, null);
      expect(unwrap(await api.listQuizAttempts({}))).toEqual([]);
      expect(await auditOf(site!, 'quiz_attempt')).toEqual([]);
    },
  );
});
