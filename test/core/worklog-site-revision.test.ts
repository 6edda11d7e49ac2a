import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';
import { api as siteApi, signIn } from '../server/helpers.ts';

// A start sent offline reached the site after the author revised the guide: the site recorded the entry on the
// revised guide (a start carries no revision), the session here went on with the one the technician worked from,
// and nothing said that the site's record shows steps and fields they never saw. The session now keeps the
// revision the site's answers name. Real HTTP, real SQLite.
let workshop: FormWorkshop;
let a: Client;

beforeAll(async () => {
  workshop = await formWorkshop();
  a = await workshop.client('tech1');
});
afterAll(async () => {
  await workshop?.close();
});

const api = () => a.app.services.api;

/** The author replaces the fields of the guide's first form: a field removed, another added, a new revision. */
async function reviseOnSite(): Promise<void> {
  const { token } = await signIn(workshop.site, 'admin');
  const forms = (await siteApi(workshop.site, 'GET', `/step_forms/guideid/${workshop.guideid}`, { token })).body as {
    stepid: number;
  }[];
  const json = { fields: [{ field_type: 'Checkbox', label: 'Guard refitted' }] };
  const { status } = await siteApi(workshop.site, 'POST', `/step_forms/${forms[0]!.stepid}`, { token, json });
  expect(status).toBe(201);
}

/** The guide revision the site keeps entry `entryid` on, as the site itself says. */
async function siteRevisionOf(entryid: number): Promise<number> {
  const { token } = await signIn(workshop.site, 'tech1');
  const entry = (await siteApi(workshop.site, 'GET', `/work_log/${entryid}`, { token })).body as {
    guide_revisionid: number;
  };
  return entry.guide_revisionid;
}

describe('the guide revision the site keeps a session on', () => {
  it('is the one the session follows when its start reached the site before any change', async () => {
    const started = unwrap(await api().startSession({ guideid: workshop.guideid, workorderid: 'WO-SITE-REV-1' }));
    await a.online();
    const session = unwrap(await api().getSession(started.id));
    expect(session.siteGuideRevisionid).toBe(session.guideRevisionid);
  });

  it('is the revised one when the start, sent offline, reached the site after the guide was revised', async () => {
    a.offline();
    const started = unwrap(await api().startSession({ guideid: workshop.guideid, workorderid: 'WO-SITE-REV-2' }));
    await reviseOnSite();
    await a.online();
    const session = unwrap(await api().getSession(started.id));
    // The session goes on with the revision the technician worked from; the site keeps it on the revised one.
    expect(session.guideRevisionid).toBe(started.guideRevisionid);
    const onSite = await siteRevisionOf(session.entryid!);
    expect(onSite).toBeGreaterThan(started.guideRevisionid);
    expect(session.siteGuideRevisionid).toBe(onSite);
    // A later change's answer says the same; it stays known.
    unwrap(await api().transitionSession({ sessionId: started.id, transition: 'pause' }));
    await a.online();
    expect(unwrap(await api().getSession(started.id)).siteGuideRevisionid).toBe(onSite);
  });
});
