import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { Dialect } from '../../server/http/dialects.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { withPrerequisites } from '../../electron/core/library/prerequisites.ts';
import { api, clearFavorites, signIn, startTestSite } from '../server/helpers.ts';

// Issue 25: a guide with prerequisites was read in a scrambled order. iFixit inlines the prerequisites'
// steps into `steps` (each with its own guideid, and an orderby that counts within its own guide); the
// mapping sorted them all by orderby, so step 1 of the guide was followed by step 1 of a prerequisite.
// Now: the prerequisites' steps first, in their order, under their own guide, then the guide's own, in
// both dialects; their forms are theirs; they are kept whole whatever the scope.

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const HOSE = id('forklift-hose');
const [LOCKOUT, INSPECTION] = [id('lockout'), id('forklift-inspection')];

/** What the site says a guide's own steps are, in order (asked without the prerequisites' steps). */
async function ownSteps(site: RunningSite, guideid: number): Promise<{ stepid: number; title: string }[]> {
  const guide = (await api(site, 'GET', `/guides/${guideid}`, { query: { excludePrerequisiteSteps: 'true' } })).body;
  return (guide.steps as { stepid: number; title: string; orderby: number }[])
    .sort((a, b) => a.orderby - b.orderby)
    .map(({ stepid, title }) => ({ stepid, title }));
}

for (const dialect of ['dozuki', 'ifixit'] as Dialect[]) {
  describe(`a guide with two prerequisite guides, ${dialect} dialect`, () => {
    let site: RunningSite;
    let app: ReturnType<typeof makeServices>;
    beforeAll(async () => {
      site = await startTestSite({ demo: true, dialect });
      // Only the scope and what it needs: tech1's favourites (kept whole whatever the scope) are not counted.
      await clearFavorites(site, 'tech1');
      app = makeServices();
      const { email, password } = DEMO_ACCOUNTS.tech1;
      unwrap(await app.services.api.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
      // Only the hose guide is chosen: its prerequisites come with it, whatever the scope.
      unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [HOSE] }));
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    });
    afterAll(async () => {
      await app?.dispose();
      await site?.close();
    });

    it("reads as the prerequisites' steps in their order, each under its guide, then its own steps", async () => {
      const guide = unwrap(await app.services.api.getGuide(HOSE));
      expect(guide.prerequisites).toEqual([
        { guideid: LOCKOUT, title: DEMO_GUIDES[LOCKOUT - 1]!.title },
        { guideid: INSPECTION, title: DEMO_GUIDES[INSPECTION - 1]!.title },
      ]);
      const expected = [
        ...(await ownSteps(site, LOCKOUT)).map((step) => ({ ...step, guideid: LOCKOUT })),
        ...(await ownSteps(site, INSPECTION)).map((step) => ({ ...step, guideid: INSPECTION })),
        ...(await ownSteps(site, HOSE)).map((step) => ({ ...step, guideid: HOSE })),
      ];
      expect(guide.steps.map(({ stepid, title, guideid }) => ({ stepid, title, guideid }))).toEqual(expected);
    });

    it("gives a prerequisite's steps their own forms", async () => {
      const guide = unwrap(await app.services.api.getGuide(HOSE));
      const { token } = await signIn(site, 'tech1');
      const siteForms = (await api(site, 'GET', `/step_forms/guideid/${INSPECTION}`, { token })).body as {
        stepid: number;
        form_revisionid: number;
      }[];
      const withForms = guide.steps.filter((step) => step.form !== null);
      expect(withForms.length).toBeGreaterThan(0);
      for (const step of withForms) expect(step.form!.stepid).toBe(step.stepid);
      const inspection = withForms.filter((step) => step.guideid === INSPECTION);
      expect(inspection.map((step) => [step.stepid, step.form!.formRevisionid])).toEqual(
        siteForms
          .filter((form) => inspection.some((s) => s.stepid === form.stepid))
          .map((form) => [form.stepid, form.form_revisionid]),
      );
    });

    it('keeps the prerequisite guides whole as guides of their own, outside the scope', async () => {
      const kept = unwrap(await app.services.api.listGuides({ offlineOnly: true, limit: 50 })).items.map(
        (g) => g.guideid,
      );
      expect(kept.sort((a, b) => a - b)).toEqual([LOCKOUT, INSPECTION, HOSE].sort((a, b) => a - b));
      const lockout: GuideDetail = unwrap(await app.services.api.getGuide(LOCKOUT));
      expect(lockout.steps.map((step) => step.stepid)).toEqual(
        (await ownSteps(site, LOCKOUT)).map((step) => step.stepid),
      );
    });

    it('stores the guide again when one of its prerequisites changes on the site', async () => {
      const { token } = await signIn(site, 'admin');
      const revisionid = (await api(site, 'GET', `/guides/${LOCKOUT}`)).body.revisionid;
      const title = `Lockout/tagout, revised (${dialect})`;
      const patched = await api(site, 'PATCH', `/guides/${LOCKOUT}`, { token, query: { revisionid }, json: { title } });
      expect(patched.status, patched.text).toBe(200);
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      expect(unwrap(await app.services.api.getGuide(HOSE)).prerequisites[0]).toEqual({ guideid: LOCKOUT, title });
    });

    it("stores the guide again when a prerequisite is deleted on the site: not the deleted guide's steps", async () => {
      // The guide's own revision does not move when a guide it needs is deleted: it kept the deleted guide's
      // steps, to be done and saved into (found walking a site of iFixit's dialect).
      const { token } = await signIn(site, 'admin');
      const revisionid = (await api(site, 'GET', `/guides/${LOCKOUT}`)).body.revisionid;
      const deleted = await api(site, 'DELETE', `/guides/${LOCKOUT}`, { token, query: { revisionid } });
      expect(deleted.status, deleted.text).toBe(204);
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      const hose = unwrap(await app.services.api.getGuide(HOSE));
      expect(hose.prerequisites.map((p) => p.guideid)).toEqual([INSPECTION]);
      expect(hose.steps.some((step) => step.guideid === LOCKOUT)).toBe(false);
      expect(hose.steps.map((step) => step.stepid)).toEqual([
        ...(await ownSteps(site, INSPECTION)).map((step) => step.stepid),
        ...(await ownSteps(site, HOSE)).map((step) => step.stepid),
      ]);
    });
  });
}

describe("a step's form", () => {
  it('is none when the site emptied it (it showed an empty record with a Save button)', () => {
    const step = (stepid: number) => ({ stepid, guideid: 7, revisionid: 1, orderby: stepid, title: '', lines: [] });
    const detail = {
      guideid: 7,
      steps: [step(1), step(2)].map((s) => ({ ...s, form: null })),
    } as unknown as GuideDetail;
    const field = { fieldGuid: 'g', fieldRevisionid: 3, label: 'Torque', type: 'Numeric Input', options: [] };
    const forms = new Map([
      [1, { formRevisionid: 11, stepid: 1, fields: [] }],
      [2, { formRevisionid: 12, stepid: 2, fields: [field] }],
    ]) as unknown as Parameters<typeof withPrerequisites>[2];
    expect(withPrerequisites(detail, [], forms).steps.map((s) => s.form?.formRevisionid ?? null)).toEqual([null, 12]);
  });
});
