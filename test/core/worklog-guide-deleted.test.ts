import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { always, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { syncedOverProxy, type makeServices } from '../helpers/services.ts';
import { guideWithForms, sampleValue } from '../helpers/worklog.ts';

// The site deletes a guide while a technician works offline in a session that follows it.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ site, proxy, app, close } = await syncedOverProxy());
});
afterAll(() => close?.());

describe('a guide deleted on the site under an unfinished session', () => {
  it(
    'keeps the forms the session follows: ' +
      'step data is still saved, replay ends on the site or in a clear failure, nothing entered is lost',
    async () => {
      const { api: appApi } = app.services;
      const { guide, fields } = await guideWithForms(appApi);
      const simple = fields.filter(({ field }) => sampleValue(field) !== null);
      const steps = [...new Set(simple.map((f) => f.stepid))];
      expect(steps.length).toBeGreaterThan(1);
      const valuesOf = (stepid: number) =>
        simple
          .filter((f) => f.stepid === stepid)
          .map(({ field }) => ({ fieldGuid: field.fieldGuid, value: sampleValue(field, 3) }));

      // Started online (the site has the entry), then offline: a first step saved.
      const session = unwrap(await appApi.startSession({ guideid: guide.guideid, workorderid: 'WO-GONE' }));
      expect(unwrap(await appApi.flushOutbox()).pending).toBe(0);
      proxy.setSchedule(always({ kind: 'reset' }));
      unwrap(await appApi.saveStepData({ sessionId: session.id, stepid: steps[0]!, values: valuesOf(steps[0]!) }));

      // Meanwhile the site deletes the guide; the network comes back and a sync learns of it.
      const admin = await signIn(site, 'admin');
      // As iFixit's description has it, a deletion names the revision it deletes.
      const query = { revisionid: guide.revisionid };
      expect((await api(site, 'DELETE', `/guides/${guide.guideid}`, { token: admin.token, query })).status).toBe(204);
      proxy.passAll();
      const sync = unwrap(await appApi.syncNow());
      expect(sync.status).toBe('complete');
      expect(
        (await appApi.listGuides({ guideids: [guide.guideid] })).ok &&
          unwrap(await appApi.listGuides({ guideids: [guide.guideid] })).total,
      ).toBe(0);

      // The session still shows its guide and accepts the next step.
      const kept = unwrap(await appApi.getGuide(guide.guideid, session.guideRevisionid));
      expect(kept.steps.map((s) => s.stepid)).toEqual(guide.steps.map((s) => s.stepid));
      const saved = await appApi.saveStepData({
        sessionId: session.id,
        stepid: steps[1]!,
        values: valuesOf(steps[1]!),
      });
      expect(saved.ok, JSON.stringify(saved)).toBe(true);

      // Replay: the site no longer takes values for the deleted guide: each is kept in a conflict that says so.
      expect(unwrap(await appApi.flushOutbox())).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
      const conflicts = unwrap(await appApi.listConflicts()).filter((c) => c.sessionId === session.id);
      const entered = steps.slice(0, 2).flatMap(valuesOf);
      expect(conflicts.map((c) => c.fieldGuid).sort()).toEqual(entered.map((v) => v.fieldGuid).sort());
      for (const conflict of conflicts) {
        expect(conflict.message).toMatch(/deleted on the site/);
        expect(conflict.mine).toBe(entered.find((v) => v.fieldGuid === conflict.fieldGuid)!.value);
      }
      const after = unwrap(await appApi.getSession(session.id));
      const local = new Map(after.values.map((v) => [v.fieldGuid, v.value]));
      for (const { fieldGuid, value } of entered) expect(local.get(fieldGuid)).toBe(value);

      // The session ends: the revision it followed stays for its summary and report (the library still does
      // not list the deleted guide); it went with the end before, and the report had no steps to show.
      unwrap(await appApi.transitionSession({ sessionId: session.id, transition: 'finish' }));
      expect(unwrap(await appApi.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });
      const tech = await signIn(site, 'tech1');
      expect((await api(site, 'GET', `/work_log/${after.entryid}`, { token: tech.token })).body).toMatchObject({
        status: 'complete',
      });
      const ended = unwrap(await appApi.getGuide(guide.guideid, session.guideRevisionid));
      expect(ended.steps.map((s) => s.stepid)).toEqual(guide.steps.map((s) => s.stepid));
      expect(unwrap(await appApi.listGuides({ guideids: [guide.guideid] })).total).toBe(0);
    },
  );

  // Started offline, the site refuses the start (its guide deleted): the session can never be on the site.
  // Discarding the start left each action after it to fail in turn ("This session was never created on
  // the site"): a start, a save, a pause, a resume and a finish took five discards in the sync centre.
  it('started offline: one discard of its refused start, nothing after it fails, all entered stays', async () => {
    const { api: appApi } = app.services;
    const { guide, fields } = await guideWithForms(appApi);
    const { field, stepid } = fields.find(({ field }) => sampleValue(field) !== null)!;
    proxy.setSchedule(always({ kind: 'reset' }));
    const session = unwrap(await appApi.startSession({ guideid: guide.guideid, workorderid: 'WO-GONE-OFFLINE' }));
    const value = sampleValue(field, 5);
    unwrap(
      await appApi.saveStepData({ sessionId: session.id, stepid, values: [{ fieldGuid: field.fieldGuid, value }] }),
    );
    for (const transition of ['pause', 'resume', 'finish'] as const)
      unwrap(await appApi.transitionSession({ sessionId: session.id, transition }));
    const admin = await signIn(site, 'admin');
    const query = { revisionid: guide.revisionid };
    expect((await api(site, 'DELETE', `/guides/${guide.guideid}`, { token: admin.token, query })).status).toBe(204);
    proxy.passAll();

    const waiting = async () =>
      unwrap(await appApi.getOutbox()).actions.filter((action) => action.sessionId === session.id);
    unwrap(await appApi.flushOutbox());
    const [start, ...after] = await waiting();
    expect([start?.kind, start?.state, start?.error]).toEqual([
      'start',
      'failed',
      `"${guide.title}" was deleted on the site, which no longer takes this; ` +
        'what you entered is kept on this computer. ' +
        'Discard it to stop sending the rest of this session.',
    ]);
    expect(after.map((a) => [a.kind, a.state])).toEqual([
      ['stepData', 'pending'],
      ['pause', 'pending'],
      ['resume', 'pending'],
      ['finish', 'pending'],
    ]);

    unwrap(await appApi.discardAction(start!.id));
    expect(unwrap(await appApi.flushOutbox())).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
    expect(await waiting()).toEqual([]);
    const kept = unwrap(await appApi.getSession(session.id));
    expect([kept.status, kept.entryid, kept.pendingActions, kept.failedActions]).toEqual(['complete', null, 0, 0]);
    expect(kept.values.map((v) => [v.fieldGuid, v.value])).toEqual([[field.fieldGuid, value]]);
    const tech = await signIn(site, 'tech1');
    const query2 = { workorderid: 'WO-GONE-OFFLINE' };
    const listed = (await api(site, 'GET', '/work_log', { token: tech.token, query: query2 })).body as {
      results: unknown[];
    };
    expect(listed.results).toEqual([]);
  });
});
