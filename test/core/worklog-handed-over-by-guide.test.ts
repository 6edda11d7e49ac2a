import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';
import { api, signIn } from '../server/helpers.ts';

// A site whose work-log list knows no `status` filter (no public shape names one: api/public-shapes.md): asked
// for the entries handed over across guides, it answers the caller's own newest entries of every status. The
// taker's list showed nothing a colleague handed over, and the sync never saw a session handed back. Such a site
// is asked guide by guide, the public way (`GET /work_log/{guideid}/suspended`).
let workshop: FormWorkshop;
let tech1: Client;
let tech2: Client;
let workorder = 0;

beforeAll(async () => {
  workshop = await formWorkshop({ noStatusFilter: true });
  [tech1, tech2] = [await workshop.client('tech1'), await workshop.client('tech2')];
});
afterAll(async () => {
  await workshop?.close();
});
beforeEach(() => workshop.passAll());

/** A session `by` starts on the form guide and hands over, both on the site: its entry. */
async function handedOverBy(by: Client): Promise<{ id: string; entryid: number }> {
  const { guideid } = workshop;
  const started = unwrap(
    await by.app.services.api.startSession({ guideid, workorderid: `WO-BY-GUIDE-${++workorder}` }),
  );
  unwrap(await by.app.services.api.transitionSession({ sessionId: started.id, transition: 'suspend' }));
  await by.online();
  return { id: started.id, entryid: unwrap(await by.app.services.api.getSession(started.id)).entryid! };
}

/** `who` does `transition` to the entry on the site (another computer), on its current revision. */
async function onSite(who: 'tech1' | 'tech2', entryid: number, transition: string): Promise<void> {
  const { token } = await signIn(workshop.site, who);
  const { revisionid } = (await api(workshop.site, 'GET', `/work_log/${entryid}`, { token })).body as {
    revisionid: number;
  };
  const path = `/work_log/${entryid}/${transition}?revisionid=${revisionid}`;
  expect((await api(workshop.site, 'POST', path, { token, json: {} })).status).toBe(200);
}

describe('a site that lists handed-over sessions guide by guide only', () => {
  it("lists tech2's hand-over for tech1, says it asked guide by guide, and keeps that offline", async () => {
    // tech1 has entries of their own on the site: the list across guides answers them, none handed over.
    const own = unwrap(await tech1.app.services.api.startSession({ guideid: workshop.guideid, workorderid: 'WO-OWN' }));
    await tech1.online();
    const { entryid } = await handedOverBy(tech2);
    tech1.proxy.clearLog();

    const online = unwrap(await tech1.app.services.api.listHandedOver());
    expect(online.sessions.find((s) => s.entryid === entryid)).toMatchObject({
      guideid: workshop.guideid,
      workorderid: `WO-BY-GUIDE-${workorder}`,
      handedOverBy: DEMO_ACCOUNTS.tech2.username,
    });
    expect(online.sessions.map((s) => s.entryid)).not.toContain(
      unwrap(await tech1.app.services.api.getSession(own.id)).entryid,
    );
    // The guides worked on here or by tech1 on the site, and kept: each asked once. The list across guides once,
    // then never again on this site.
    const { asked: count, known } = online.byGuide!;
    expect([count >= 1, known]).toEqual([true, count]);
    const asked = () => tech1.proxy.requestsTo(/^\/api\/2\.0\/work_log/).map((r) => r.path.replace(/\?.*/, '?…'));
    const guides = asked().filter((path) => path.endsWith('/suspended'));
    expect(guides).toContain(`/api/2.0/work_log/${workshop.guideid}/suspended`);
    expect(asked()).toEqual(['/api/2.0/work_log?…', ...guides]);
    expect(new Set(guides).size).toBe(count);
    tech1.proxy.clearLog();
    expect(unwrap(await tech1.app.services.api.listHandedOver()).sessions.map((s) => s.entryid)).toContain(entryid);
    expect(asked().sort()).toEqual([...guides].sort());

    tech1.offline();
    const offline = unwrap(await tech1.app.services.api.listHandedOver());
    expect(offline.learnedAt).not.toBeNull();
    expect(offline.byGuide).toEqual(online.byGuide);
    expect(offline.sessions.map((s) => s.entryid)).toContain(entryid);
  });

  it("a hand-back by the colleague who took it over is seen at tech1's next sync", async () => {
    const { id, entryid } = await handedOverBy(tech1);
    await onSite('tech2', entryid, 'assume');
    expect(unwrap(await tech1.app.services.api.syncNow()).status).toBe('complete');
    const [tech1id, tech2id] = [
      (await signIn(workshop.site, 'tech1')).userid,
      (await signIn(workshop.site, 'tech2')).userid,
    ];
    expect(unwrap(await tech1.app.services.api.getSession(id)).userid).not.toBe(tech1id);

    await onSite('tech2', entryid, 'suspend');
    expect(unwrap(await tech1.app.services.api.syncNow()).status).toBe('complete');
    expect(unwrap(await tech1.app.services.api.getSession(id))).toMatchObject({
      status: 'suspended',
      userid: tech1id,
      handedBack: { userid: tech2id, name: DEMO_ACCOUNTS.tech2.username },
    });
  });
});
