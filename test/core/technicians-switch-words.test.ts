import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { startTestSite } from '../server/helpers.ts';

// Issue 28: a message names only what was asked. Switching back asks a known technician for their
// password alone, so a refusal is the password's, not "the e-mail and password".
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const account = (who: 'tech1' | 'tech2') => ({
  email: DEMO_ACCOUNTS[who].email,
  password: DEMO_ACCOUNTS[who].password,
});

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  app = makeServices();
  unwrap(await app.services.api.signIn({ siteUrl: site.url, ...account('tech2') }));
  unwrap(await app.services.api.switchTechnician(account('tech1')));
});
afterAll(async () => {
  await app?.dispose();
  await site?.close().catch(() => undefined);
});

describe('switching back to a technician of this laptop', () => {
  it('with a wrong password says the password was refused, naming whose', async () => {
    const wrong = await app.services.api.switchTechnician({ ...account('tech2'), password: 'not-their-password' });
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.error.code).toBe('unauthorized');
    expect(wrong.error.message).toBe(`The site refused the password of ${DEMO_ACCOUNTS.tech2.username}.`);
  });

  it('someone new with a wrong password still hears of the e-mail and password they typed', async () => {
    const wrong = await app.services.api.switchTechnician({ email: 'admin@demo.test', password: 'nope' });
    expect(wrong.ok ? null : wrong.error.message).toBe('The site refused the e-mail and password.');
  });
});

describe('switching back while the site does not answer', () => {
  it('says which it is: a password not the one used here, or a sign-in not kept', async () => {
    // tech1 works; tech2's sign-in is kept. The site goes; then tech1 signs out (their token forgotten).
    await site.close();
    const wrong = await app.services.api.switchTechnician({ ...account('tech2'), password: 'not-their-password' });
    expect(wrong.ok ? null : wrong.error.message).toBe(
      `The site did not answer, and this is not the password ${DEMO_ACCOUNTS.tech2.username} used on this ` +
        'computer last: offline, only that one can be checked here.',
    );
    unwrap(await app.services.api.signOut());
    const refused = await app.services.api.switchTechnician(account('tech1'));
    expect(refused.ok ? null : refused.error.message).toBe(
      `The site did not answer, and ${DEMO_ACCOUNTS.tech1.username}'s sign-in is not kept on this computer (the ` +
        'site refused it, or they signed out): sign in again once the site can be reached.',
    );
  });
});
