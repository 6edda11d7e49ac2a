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

      // The session ends: what it alone kept of the deleted guide goes.
      unwrap(await appApi.transitionSession({ sessionId: session.id, transition: 'finish' }));
      expect(unwrap(await appApi.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });
      const tech = await signIn(site, 'tech1');
      expect((await api(site, 'GET', `/work_log/${after.entryid}`, { token: tech.token })).body).toMatchObject({
        status: 'complete',
      });
      expect((await appApi.getGuide(guide.guideid, session.guideRevisionid)).ok).toBe(false);
    },
  );
});
