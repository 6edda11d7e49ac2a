import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { guideWithForms } from '../helpers/worklog.ts';
import { appPage, artifact, gloveDoubleTap, launchChromium, startApp } from './browser.ts';

// The app opened again after it died mid-job (a battery gone flat; found killing the web shell in a
// session): it opened on the library, and nothing there said a job was under way. The technician found it
// through My sessions, or started it again. Here the app is stopped and started again on its data folder,
// the site gone meanwhile, and the library says which session is open and goes back to it.
const folder = makeTempDir('reopen');
const demo = proxiedDemoWorkshop();
let browser: Browser;
let again: Awaited<ReturnType<typeof startApp>> | null = null;
let session = { id: '', guideTitle: '' };
/** The step the work stopped at (1-based): the last with a value saved. */
let stoppedAt = 0;

beforeAll(async () => {
  const first = await startApp({ startDemoWorkshop: demo.startDemoWorkshop }, folder.dir);
  try {
    const { api } = first.app.services;
    unwrap(await api.connectDemo());
    unwrap(await api.syncNow());
    const { guide, fields } = await guideWithForms(api);
    unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-EARLIER' }));
    session = unwrap(await api.startSession({ guideid: guide.guideid, workorderid: 'WO-REOPEN' }));
    // Values saved on two steps past the first with a form: the work stopped at the later of them.
    const answer = { 'Text Input': 'kept', 'Text Area': 'kept', 'Numeric Input': '1', Checkbox: '1' } as const;
    const typed = fields.filter((f) => f.field.type in answer);
    for (const { stepid, field } of [...new Map(typed.map((f) => [f.stepid, f])).values()].slice(1, 3)) {
      const value = answer[field.type as keyof typeof answer];
      unwrap(
        await api.saveStepData({ sessionId: session.id, stepid, values: [{ fieldGuid: field.fieldGuid, value }] }),
      );
    }
    const saved = new Set(unwrap(await api.getSession(session.id)).values.map((v) => v.stepid));
    expect(saved.size).toBe(2);
    stoppedAt = 1 + guide.steps.findLastIndex((step) => saved.has(step.stepid));
  } finally {
    await first.stop();
  }
  [browser, again] = await Promise.all([
    launchChromium(),
    startApp({ startDemoWorkshop: demo.startDemoWorkshop }, folder.dir),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await again?.stop();
  folder.remove();
});

describe('the app opened again with a session under way', () => {
  it('the library says which sessions are open, and one tap goes back to the newest', async () => {
    const page = await appPage(browser, again!.shell, { width: 1024, height: 600 });
    await page.goto(again!.shell.url);
    await page.evaluate(() => localStorage.setItem('fieldguide.textSize', 'large'));
    await page.reload();
    await page.getByTestId('library').waitFor();
    const banner = page.getByTestId('open-session-banner');
    await banner.waitFor();
    const words = (await banner.locator('p').textContent())!.replace(/\s+/g, ' ').trim();
    // The newest named, the others counted.
    expect(words).toBe(`2 work sessions are open: ${session.guideTitle} · Work order WO-REOPEN (in progress).`);
    // In view with the first guides below it, at 1024x600 with Larger text; the button a glove's size.
    const go = (await page.getByTestId('open-session-go').boundingBox())!;
    expect(go.y + go.height).toBeLessThan(600 - 44);
    expect(go.height).toBeGreaterThanOrEqual(48);
    await page.getByTestId('guide-row').first().waitFor();
    await page.screenshot({ path: artifact('reopen-open-session-1024x600-larger.png') });
    // A glove's double tap on All open sessions opens the list, not the session its bounce lands on there.
    await gloveDoubleTap(page, page.getByTestId('open-session-all'));
    await page.getByTestId('sessions').waitFor();
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/sessions');
    await page.getByTestId('nav-library').click();
    await page.getByTestId('open-session-go').click();
    await page.waitForURL(new RegExp(`/sessions/${session.id}`));
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    // At the step where the work stopped, not step 1 (a window new to the session after an upgrade).
    expect(stoppedAt).toBeGreaterThan(1);
    expect(await page.getByTestId('step-count').textContent()).toMatch(new RegExp(`^Step ${stoppedAt} of `));
  });
});
