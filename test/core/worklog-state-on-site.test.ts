import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepFormField } from '../../electron/contract.ts';
import { always, onPaths } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { formWorkshop, type Client, type FormWorkshop } from '../helpers/worklog-clients.ts';

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

describe("the session's last change of state, on the site or not", () => {
  it('is said waiting while the site is away, and no more once the site has it', async () => {
    a.offline();
    const started = unwrap(await api().startSession({ guideid: workshop.guideid, workorderid: 'WO-STATE-1' }));
    expect(await stateOf(started.id)).toEqual({ action: 'start', held: false });
    unwrap(await api().transitionSession({ sessionId: started.id, transition: 'finish' }));
    expect(await stateOf(started.id)).toEqual({ action: 'finish', held: false });
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
    expect(session.stateNotOnSite).toEqual({ action: 'finish', held: true });
    a.proxy.passAll();
  });
});
