import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepFormField } from '../../electron/contract.ts';
import { always, onPaths } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';
import { api as siteApi, signIn } from '../server/helpers.ts';

// A report printed at the end of the day said "Complete" and "Nothing waits to be sent" while the site still had
// the session started: its finish waited behind a value the site refused (a walk of the report). The session
// now says whether its last change of state is on the site (`stateNotOnSite`). Real HTTP, real SQLite.
let workshop: FormWorkshop;
let a: Client;
let field: { field: StepFormField; stepid: number };

beforeAll(async () => {
  workshop = await formWorkshop();
  a = await workshop.client('tech1');
  const guide = unwrap(await a.app.services.api.getGuide(workshop.guideid));
  field = guide.steps
    .flatMap((s) => (s.form ? s.form.fields.map((f) => ({ field: f, stepid: s.stepid })) : []))
    .find(({ field: f }) => f.type === 'Text Input')!;
});
afterAll(async () => {
  await workshop?.close();
});

const api = () => a.app.services.api;
const stateOf = async (id: string) => unwrap(await api().getSession(id)).stateNotOnSite;
/** The network back, and the actions the site refused discarded: the next test starts with nothing waiting. */
async function discardRefused(): Promise<void> {
  a.proxy.passAll();
  for (const action of unwrap(await api().getOutbox()).actions.filter((x) => x.state === 'failed'))
    unwrap(await api().discardAction(action.id));
  await a.online();
}

describe("the session's last change of state, on the site or not", () => {
  it('is said waiting while the site is away, and no more once the site has it', async () => {
    a.offline();
    const started = unwrap(await api().startSession({ guideid: workshop.guideid, workorderid: 'WO-STATE-1' }));
    expect(await stateOf(started.id)).toEqual({ action: 'start', because: 'waiting' });
    unwrap(await api().transitionSession({ sessionId: started.id, transition: 'finish' }));
    expect(await stateOf(started.id)).toEqual({ action: 'finish', because: 'waiting' });
    await a.online();
    expect(await stateOf(started.id)).toBeNull();
  });

  it('is said held when a value before the finish was refused, and the finish is not on the site', async () => {
    const started = unwrap(await api().startSession({ guideid: workshop.guideid, workorderid: 'WO-STATE-2' }));
    await a.online();
    a.proxy.setSchedule(
      onPaths(/\/stepData/, always({ kind: 'status', status: 400, message: 'Not one of the choices' })),
    );
    unwrap(
      await api().saveStepData({
        sessionId: started.id,
        stepid: field.stepid,
        values: [{ fieldGuid: field.field.fieldGuid, value: 'Refused by the site' }],
      }),
    );
    unwrap(await api().transitionSession({ sessionId: started.id, transition: 'finish' }));
    const summary = unwrap(await api().flushOutbox());
    expect(summary.failed).toBe(1);
    const session = unwrap(await api().getSession(started.id));
    expect(session.status).toBe('complete');
    expect(session.stateNotOnSite).toEqual({ action: 'finish', because: 'held' });
    await discardRefused();
  });

  it('is said refused when the site refused the finish itself, not held behind another action', async () => {
    const started = unwrap(await api().startSession({ guideid: workshop.guideid, workorderid: 'WO-STATE-3' }));
    await a.online();
    a.proxy.setSchedule(onPaths(/\/finish/, always({ kind: 'status', status: 400, message: 'Not now' })));
    unwrap(await api().transitionSession({ sessionId: started.id, transition: 'finish' }));
    expect(unwrap(await api().flushOutbox()).failed).toBe(1);
    expect(await stateOf(started.id)).toEqual({ action: 'finish', because: 'refused' });
    await discardRefused();
  });
});

describe('what the site decided of a session', () => {
  it('is not said of a session finished here after an old disagreement ("suspended on the site")', async () => {
    // A walk: paused here while the technician suspended it on the site from another computer, taken back and
    // finished here: its screen and report were headed "suspended on the site. This session is read-only here."
    const started = unwrap(await api().startSession({ guideid: workshop.guideid, workorderid: 'WO-STATE-4' }));
    await a.online();
    const entryid = unwrap(await api().getSession(started.id)).entryid!;
    a.offline();
    unwrap(await api().transitionSession({ sessionId: started.id, transition: 'pause' }));
    const tech1 = await signIn(workshop.site, 'tech1');
    const entry = (await siteApi(workshop.site, 'GET', `/work_log/${entryid}`, { token: tech1.token })).body as {
      revisionid: number;
    };
    const suspend = `/work_log/${entryid}/suspend?revisionid=${entry.revisionid}`;
    expect((await siteApi(workshop.site, 'POST', suspend, { token: tech1.token, json: {} })).status).toBe(200);
    await a.online();
    const disagreed = unwrap(await api().listConflicts()).filter((c) => c.sessionId === started.id);
    expect(disagreed.map((c) => c.kind)).toEqual(['transition']);
    expect(unwrap(await api().getSession(started.id)).siteDecided).toBeNull();
    unwrap(await api().assumeSession(entryid));
    unwrap(await api().transitionSession({ sessionId: started.id, transition: 'finish' }));
    await a.online();
    expect(unwrap(await api().getSession(started.id))).toMatchObject({ status: 'complete', siteDecided: null });
  });
});
