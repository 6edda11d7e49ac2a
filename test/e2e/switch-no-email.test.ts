import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { unwrap } from '../helpers/library.ts';
import { proxiedDemoWorkshop } from '../helpers/services.ts';
import { demoAppForFile } from './browser.ts';

// The morning after an upgrade from the release before e-mails were kept (a walk): Sam's row on the Switch
// technician screen opened on "API token", which technicians do not have; "Password" showed no e-mail box,
// and his password gave "Invalid arguments for switchTechnician: 0.email: E-mail is required". A technician
// this computer knows no e-mail of (an older release's, or one who signed in with a token) is asked for it,
// with the password, and signs in from their own row.
const demo = proxiedDemoWorkshop();
const opened = demoAppForFile(demo, { width: 1024, height: 600 });

/** A technician's API token from the site, as a token sign-in uses it: this computer keeps no e-mail of them. */
async function tokenOf(account: { email: string; password: string }): Promise<string> {
  const answer = await fetch(`${demo.site().apiUrl}/user/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  return ((await answer.json()) as { authToken: string }).authToken;
}

describe('a technician this computer knows no e-mail of', () => {
  it('signs in from their row with e-mail and password', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    // Jordan signs in with an API token (no e-mail kept), then Sam again.
    const { email, password, username } = DEMO_ACCOUNTS.tech2;
    unwrap(await api.switchTechnician({ token: await tokenOf({ email, password }) }));
    const tech1 = DEMO_ACCOUNTS.tech1;
    unwrap(await api.switchTechnician({ email: tech1.email, password: tech1.password }));

    await page.goto(new URL('/switch', app.shell.url).toString());
    await page.getByTestId('switch-screen').waitFor();
    const row = page.getByTestId('technician-row').filter({ hasText: username });
    await row.getByTestId('technician-pick').click();
    const form = row.getByTestId('switch-form');
    // The keyboard in the e-mail box, the first to type in.
    await expect
      .poll(() => form.getByLabel('E-mail', { exact: true }).evaluate((el) => el === document.activeElement))
      .toBe(true);
    await page.keyboard.type(email);
    await form.getByTestId('switch-password').fill(password);
    await form.getByTestId('switch-submit').click();
    await page.getByTestId('library').waitFor();
    await expect.poll(() => page.getByTestId('status-user').textContent()).toBe(username);
    expect(pageErrors).toEqual([]);
  });

  it("says so when the e-mail typed in that row is another technician's", async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    // The author's row asks for an e-mail (a token sign-in); Sam's e-mail and password are typed in it.
    const { email, password, username } = DEMO_ACCOUNTS.author;
    unwrap(await api.switchTechnician({ token: await tokenOf({ email, password }) }));
    const tech2 = DEMO_ACCOUNTS.tech2;
    unwrap(await api.switchTechnician({ email: tech2.email, password: tech2.password }));
    await page.goto(new URL('/switch', app.shell.url).toString());
    await page.getByTestId('switch-screen').waitFor();
    const row = page.getByTestId('technician-row').filter({ hasText: username });
    await row.getByTestId('technician-pick').click();
    const form = row.getByTestId('switch-form');
    const tech1 = DEMO_ACCOUNTS.tech1;
    await form.getByLabel('E-mail', { exact: true }).fill(tech1.email);
    await form.getByTestId('switch-password').fill(tech1.password);
    await form.getByTestId('switch-submit').click();
    await page.getByTestId('library').waitFor();
    await expect.poll(() => page.getByTestId('status-user').textContent()).toBe(tech1.username);
    // Said, not only the status bar's name: who is signed in, and how to work as the row's technician.
    await expect
      .poll(() => page.getByTestId('app-notice').textContent())
      .toContain(
        `Signed in as ${tech1.username}: the e-mail typed in ${username}'s row is ${tech1.username}'s. ` +
          `To work as ${username}, type ${username}'s own e-mail in that row.`,
      );
    // In view: the library opened at its top, not where the Switch screen was scrolled to (the notice was above).
    const box = (await page.getByTestId('app-notice').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(600);
    expect(pageErrors).toEqual([]);
  });
});
