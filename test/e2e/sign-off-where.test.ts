import { describe, expect, it } from 'vitest';
import { signOffField } from '../../electron/shared/field-answers.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';

// A walk through long guides signed off a session of a guide whose forms have no field for it: the sign-off
// stayed on this computer (in the report only), and the session's summary said "Everything has reached the
// site". The review says where the sign-off goes before it is given, and the summary does not claim it.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });
const FORKLIFT = 10;
const HOSE = DEMO_GUIDES.findIndex((guide) => guide.key === 'forklift-hose') + 1;

async function finishSignedOff(guideid: number, workorderid: string): Promise<string> {
  const { app, page } = opened;
  const session = unwrap(await app.app.services.api.startSession({ guideid, workorderid }));
  await page.goto(new URL(`/sessions/${session.id}`, app.shell.url).toString());
  await page.getByTestId('session-finish').click();
  await page.getByTestId('finish-review').waitFor();
  const where = (await page.getByTestId('sign-off-where').textContent())!;
  await page.getByTestId('sign-off-where').scrollIntoViewIfNeeded();
  await page.screenshot({ path: artifact(`sign-off-where-${workorderid}.png`) });
  await page.getByTestId('sign-off-name').fill(DEMO_ACCOUNTS.tech1.username);
  await page.getByTestId('review-confirm').click();
  await page.locator('[data-testid="session"][data-status="complete"]').waitFor();
  unwrap(await app.app.services.api.flushOutbox());
  return where;
}

describe('where a sign-off goes', () => {
  it('a guide with a field for it: the review names the field, and the site has it', async () => {
    const { page } = opened;
    const where = await finishSignedOff(FORKLIFT, 'WO-SIGN-FIELD');
    expect(where).toBe('It goes to the site in the field “Signed off by”.');
    await expect.poll(() => page.getByTestId('summary-site').textContent()).toBe('Everything has reached the site');
  });

  it('a guide without one: the review says it stays here, and the summary does not say everything', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    let without: number | null = null;
    for (const { guideid } of await allLocalGuides(api))
      if (without === null && signOffField(unwrap(await api.getGuide(guideid))) === null) without = guideid;
    const where = await finishSignedOff(without!, 'WO-SIGN-HERE');
    expect(where).toContain("This guide's forms have no field for a sign-off: it stays on this computer");
    await expect
      .poll(() => page.getByTestId('summary-site').textContent())
      .toBe('Everything but the sign-off, which stays on this computer (the site has no field for it)');
    expect(pageErrors).toEqual([]);
  });

  it("a prerequisite's sign-off field is the technician's to type: the job's sign-off stays here", async () => {
    // The hose guide opens with the pre-shift inspection, whose last step has "Signed off by": the sign-off of
    // the hose job went into it. The inspection's field is typed like any other, and the site has it as typed.
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const hose = unwrap(await api.getGuide(HOSE));
    const at = hose.steps.findIndex((step) => step.guideid !== HOSE && step.form?.fields[0]?.label === 'Signed off by');
    expect(at).toBeGreaterThanOrEqual(0);
    const session = unwrap(await api.startSession({ guideid: HOSE, workorderid: 'WO-SIGN-PREREQ' }));
    await page.goto(new URL(`/sessions/${session.id}?step=${at + 1}`, app.shell.url).toString());
    const signed = page.getByTestId('step-form').getByLabel('Signed off by');
    await expect.poll(() => signed.isEnabled()).toBe(true);
    // Not the site's hint written for the inspection on its own ("filled in when you sign off at Finish"): the
    // field says what to type.
    expect(await signed.getAttribute('placeholder')).toBe('');
    expect(await page.getByTestId('typed-sign-off').textContent()).toBe(
      "Type who signed this part off: your sign-off at Finish is this guide's own and does not fill it.",
    );
    await page.screenshot({ path: artifact('sign-off-typed-prerequisite-1024x600.png') });
    await signed.fill('Inspected by Sam, 06:10');
    await page.getByTestId('step-save').click();
    await expect.poll(async () => unwrap(await api.getSession(session.id)).values.length).toBe(1);
    await page.getByTestId('session-finish').click();
    await page.getByTestId('finish-review').waitFor();
    expect(await page.getByTestId('sign-off-where').textContent()).toContain(
      "This guide's forms have no field for a sign-off: it stays on this computer",
    );
    await page.getByTestId('sign-off-name').fill(DEMO_ACCOUNTS.tech1.username);
    await page.getByTestId('review-confirm').click();
    await page.locator('[data-testid="session"][data-status="complete"]').waitFor();
    unwrap(await api.flushOutbox());
    const { email, password } = DEMO_ACCOUNTS.tech1;
    const signIn = await fetch(`${demo.site().apiUrl}/user/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { authToken } = (await signIn.json()) as { authToken: string };
    const entryid = unwrap(await api.getSession(session.id)).entryid;
    const entry = (await (
      await fetch(`${demo.site().apiUrl}/work_log/${entryid}`, { headers: { Authorization: `api ${authToken}` } })
    ).json()) as { status: string; work_data: { label: string; value: string }[] };
    expect(entry.status).toBe('complete');
    expect(entry.work_data.map((d) => [d.label, d.value])).toEqual([['Signed off by', 'Inspected by Sam, 06:10']]);
    expect(pageErrors).toEqual([]);
  });
});
