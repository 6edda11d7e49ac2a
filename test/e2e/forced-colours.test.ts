import { describe, expect, it } from 'vitest';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { artifact, demoAppForFile } from './browser.ts';

// High contrast (Windows' contrast themes: forced colours): the system's colours replace the app's, and
// the step shown in run mode's step list was told from the others by its bold title alone (an
// accessibility walk). It is ringed in the highlight colour.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1366, height: 768 });

describe('forced colours', () => {
  it("ring the step shown in run mode's step list", async () => {
    const { app, page } = opened;
    const session = unwrap(await app.app.services.api.startSession({ guideid: 3, workorderid: 'WO-CONTRAST' }));
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto(new URL(`/sessions/${session.id}?step=3`, app.shell.url).toString());
    await page.locator('[data-testid="step-nav-3"][aria-current="step"]').waitFor();
    const border = (testid: string) =>
      page.getByTestId(testid).evaluate((button) => getComputedStyle(button).borderTopWidth);
    expect(await border('step-nav-3')).toBe('3px');
    expect(await border('step-nav-2')).not.toBe('3px');
    await page.screenshot({ path: artifact('forced-colours-run-step-3.png') });
  });
});
