import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { formGuideOnSite } from '../helpers/worklog.ts';

// A damaged outbox row (a bad disk sector, a hand edit, a bug) is reported and set aside; the rest drains.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let guideid: number;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  guideid = await formGuideOnSite(site.apiUrl, (await signIn(site, 'admin')).token);
  app = makeServices();
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }));
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('a corrupt outbox row', () => {
  it('is reported and set aside while the other sessions drain; discarding it lets its own chain go on', async () => {
    proxy.setSchedule(always({ kind: 'reset' }));
    const api = app.services.api;
    const damaged = unwrap(await api.startSession({ guideid, workorderid: 'WO-DAMAGED' }));
    unwrap(await api.transitionSession({ sessionId: damaged.id, transition: 'pause' }));
    unwrap(await api.transitionSession({ sessionId: damaged.id, transition: 'resume' }));
    const healthy = unwrap(await api.startSession({ guideid, workorderid: 'WO-HEALTHY' }));
    unwrap(await api.transitionSession({ sessionId: healthy.id, transition: 'finish' }));
    const unknownKind = unwrap(await api.startSession({ guideid, workorderid: 'WO-UNKNOWN' }));

    // Damage two rows behind the app's back, in the real database file.
    const actions = unwrap(await api.getOutbox()).actions;
    const pause = actions.find((a) => a.sessionId === damaged.id && a.kind === 'pause')!;
    const start = actions.find((a) => a.sessionId === unknownKind.id && a.kind === 'start')!;
    const db = new Database(path.join(app.dataDir, 'fieldguide.sqlite'));
    db.prepare("UPDATE outbox SET payload = '{\"sessionId\": ' WHERE id = ?").run(pause.id);
    db.prepare("UPDATE outbox SET kind = 'teleport' WHERE id = ?").run(start.id);
    db.close();

    proxy.passAll();
    const summary = unwrap(await api.flushOutbox());
    expect(summary).toMatchObject({ failed: 2, pending: 1 });
    const view = unwrap(await api.getOutbox());
    expect(view.actions.find((a) => a.id === pause.id)).toMatchObject({ state: 'failed', error: 'the stored pause action is not JSON' });
    expect(view.actions.find((a) => a.id === start.id)).toMatchObject({ state: 'failed', error: 'unknown action "teleport"' });
    expect(app.logs.some((line) => line.includes(`Outbox action ${pause.id} could not be read`))).toBe(true);
    // The healthy session reached the site; the damaged one's later action waits behind its head.
    expect(unwrap(await api.getSession(healthy.id))).toMatchObject({ pendingActions: 0, status: 'complete' });
    expect(unwrap(await api.getSession(damaged.id))).toMatchObject({ pendingActions: 1, failedActions: 1 });

    unwrap(await api.discardAction(pause.id));
    const after = unwrap(await api.flushOutbox());
    expect(after).toMatchObject({ pending: 0, failed: 1 });
    expect(unwrap(await api.getSession(damaged.id))).toMatchObject({ pendingActions: 0, failedActions: 0, status: 'started' });
  });
});
