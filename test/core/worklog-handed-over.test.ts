import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { unwrap } from '../helpers/library.ts';
import { api, signIn } from '../server/helpers.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';

// Issue 28: the taker's Sessions list shows what others handed over, across guides, with who and when,
// from the site while it answers and from what this laptop last learned when it does not.
let workshop: FormWorkshop;
let tech1: Client;
let tech2: Client;

beforeAll(async () => {
  workshop = await formWorkshop();
  [tech1, tech2] = [await workshop.client('tech1'), await workshop.client('tech2')];
});
afterAll(async () => {
  await workshop?.close();
});

describe('sessions handed over to the taker', () => {
  it("lists tech2's suspended session for tech1 with tech2's name and the time, offline too", async () => {
    const { guideid } = workshop;
    const started = unwrap(await tech2.app.services.api.startSession({ guideid, workorderid: 'WO-HAND-1' }));
    const before = Math.floor(Date.now() / 1000);
    unwrap(await tech2.app.services.api.transitionSession({ sessionId: started.id, transition: 'suspend' }));
    const after = Math.ceil(Date.now() / 1000);
    await tech2.online();
    const entryid = unwrap(await tech2.app.services.api.getSession(started.id)).entryid!;

    const online = unwrap(await tech1.app.services.api.listHandedOver());
    expect(online.learnedAt).toBeNull();
    const row = online.sessions.find((s) => s.entryid === entryid);
    expect(row).toMatchObject({
      guideid,
      workorderid: 'WO-HAND-1',
      handedOverBy: DEMO_ACCOUNTS.tech2.username,
    });
    expect(row!.guideTitle).not.toMatch(/^Guide \d+$/);
    // The suspension's time as the site has it (the site's clock is learned to the second: ±2 s).
    expect(row!.handedOverAt).toBeGreaterThanOrEqual(before - 2);
    expect(row!.handedOverAt).toBeLessThanOrEqual(after + 2);
    // The demo's own hand-over (tech2's WO-24021 on another guide) is there too: one list across guides.
    expect(online.sessions.map((s) => s.workorderid)).toContain('WO-24021');

    // Not offered to the one who handed it over.
    const own = unwrap(await tech2.app.services.api.listHandedOver());
    expect(own.sessions.map((s) => s.entryid)).not.toContain(entryid);

    tech1.offline();
    const offline = unwrap(await tech1.app.services.api.listHandedOver());
    expect(offline.learnedAt).not.toBeNull();
    expect(offline.sessions.find((s) => s.entryid === entryid)).toEqual(row);

    await tech1.online();
    const taken = unwrap(await tech1.app.services.api.assumeSession(entryid));
    await tech1.online();
    expect(unwrap(await tech1.app.services.api.getSession(taken.id))).toMatchObject({ status: 'started' });
    const later = unwrap(await tech1.app.services.api.listHandedOver());
    expect(later.sessions.map((s) => s.entryid)).not.toContain(entryid);
  });

  it('says a session no longer handed over is being worked on again, not "belongs to someone else"', async () => {
    // A walk: tech2 took the session back on the site while tech1's list still showed it handed over.
    const { guideid } = workshop;
    const started = unwrap(await tech2.app.services.api.startSession({ guideid, workorderid: 'WO-HAND-BACK' }));
    unwrap(await tech2.app.services.api.transitionSession({ sessionId: started.id, transition: 'suspend' }));
    await tech2.online();
    const entryid = unwrap(await tech2.app.services.api.getSession(started.id)).entryid!;
    expect(unwrap(await tech1.app.services.api.listHandedOver()).sessions.map((s) => s.entryid)).toContain(entryid);
    unwrap(await tech2.app.services.api.transitionSession({ sessionId: started.id, transition: 'assume' }));
    await tech2.online();
    const refused = await tech1.app.services.api.assumeSession(entryid);
    expect(refused.ok ? 'taken' : refused.error.message).toBe(
      'This session is no longer handed over: its technician is working on it again, so it cannot be taken over.',
    );
    expect(unwrap(await tech2.app.services.api.getSession(started.id)).status).toBe('started');
  });

  it('counts the time it waited handed over as pause, as the site does, and opens where the work stopped', async () => {
    // Handed over a quarter of an hour ago, after a quarter of an hour of work on another computer.
    const { guideid, site } = workshop;
    const tech2OnSite = await signIn(site, 'tech2');
    const now = Math.floor(Date.now() / 1000);
    const token = tech2OnSite.token;
    const started = await api(site, 'POST', '/work_log', {
      token,
      json: { guideid, workorderid: 'WO-HAND-2', timestamp: now - 1800 },
    });
    const { entryid } = started.body as { entryid: number };
    // A value recorded in a step that is neither the first nor the last with a form: the work stopped there.
    const forms = (await api(site, 'GET', `/step_forms/guideid/${guideid}`, { token })).body as {
      stepid: number;
      fields: { field_revisionid: number; field_type: string; options?: string[] }[];
    }[];
    const typedIn = forms.slice(1, -1).find((form) => form.fields[0]?.field_type === 'Select')!;
    const [field] = typedIn.fields;
    const saved = await api(site, 'PUT', `/work_log/${entryid}/stepData`, {
      token,
      query: { revisionid: (started.body as { revisionid: number }).revisionid },
      json: {
        fields: { [field!.field_revisionid]: field!.options![0] },
        stepid: typedIn.stepid,
        timestamp: now - 1000,
      },
    });
    const revisionid = (saved.body as { revisionid: number }).revisionid;
    await api(site, 'POST', `/work_log/${entryid}/suspend`, {
      token,
      query: { revisionid },
      json: { timestamp: now - 900 },
    });

    await tech1.online();
    const taken = unwrap(await tech1.app.services.api.assumeSession(entryid));
    await tech1.online();
    const here = unwrap(await tech1.app.services.api.getSession(taken.id));
    const tech1OnSite = await signIn(site, 'tech1');
    const there = (await api(site, 'GET', `/work_log/${entryid}`, { token: tech1OnSite.token })).body as {
      pause_duration: number;
    };
    expect(there.pause_duration).toBeGreaterThanOrEqual(890);
    // The pause of this computer's session is the site's, to the second or two its clock is learned to.
    expect(Math.abs(here.pauseSeconds - there.pause_duration)).toBeLessThanOrEqual(3);
    // It opens where the work stopped (the site says no step while it is handed over), not at step 1.
    expect(here.activeStepid).toBe(typedIn.stepid);
    // And it keeps whom it was taken over from, and when they handed it over (the report names them).
    expect(here.takenFrom).toEqual({ userid: tech2OnSite.userid, name: DEMO_ACCOUNTS.tech2.username, at: now - 900 });
  });
});
