import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { capturingDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';
import { reviseForkForm } from './run-mode-checks.ts';

// A walk: a sync brought a revision of the guide of the session open on screen, and the screen said nothing;
// "The site revised this guide" came only with the session's next change (a save, a pause), or a reload.
const demo = capturingDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });
const FORKLIFT = 10;

describe('a session open on screen when a sync brings its guide revised', () => {
  it('says the site revised the guide as the sync stores it, with nothing done in the session', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    const session = unwrap(await api.startSession({ guideid: FORKLIFT, workorderid: 'WO-REVISED-OPEN' }));
    await page.goto(new URL(`/sessions/${session.id}?step=1`, app.shell.url).toString());
    await page.locator('[data-testid="step-form"][data-ready="true"]').waitFor();
    expect(await page.getByTestId('guide-revised').count()).toBe(0);
    // The author revises step 4's form on the site; this computer's sync stores the revision.
    await reviseForkForm(demo.site(), FORKLIFT);
    unwrap(await api.syncNow());
    // No save, no pause, no reload: the notice comes, and names what the revised form asks for.
    const revised = page.getByTestId('guide-revised');
    await revised.waitFor({ timeout: 10_000 });
    await revised.getByText('Both fork locking pins engaged', { exact: false }).waitFor({ state: 'attached' });
    await page.screenshot({ path: artifact('revised-while-open.png') });
    expect(pageErrors).toEqual([]);
  });
});
