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

describe('a technician this computer knows no e-mail of', () => {
  it('signs in from their row with e-mail and password', async () => {
    const { app, page, pageErrors } = opened;
    const api = app.app.services.api;
    // Jordan signs in with an API token (no e-mail kept), then Sam again.
    const { email, password, username } = DEMO_ACCOUNTS.tech2;
    const answer = await fetch(`${demo.site().apiUrl}/user/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { authToken } = (await answer.json()) as { authToken: string };
    unwrap(await api.switchTechnician({ token: authToken }));
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
});
