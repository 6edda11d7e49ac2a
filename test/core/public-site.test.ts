import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite } from '../../server/site.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 15, acceptance 2: a public site with no account. Connect by its address alone, sync two
// categories, stop the site, read them. Signing in later keeps the library.
describe('a public site without an account', () => {
  it('is read offline by its address alone, and signing in keeps the library', { timeout: 60_000 }, async () => {
    const site = await startDemoSite({ mediaOrigin: true });
    const app = makeServices();
    try {
      const status = unwrap(await app.services.api.connectPublic({ siteUrl: site.url }));
      // The media port is this computer's: fetched once the technician allowed it (issue 26).
      unwrap(await app.services.api.allowMediaOrigin(site.mediaUrl!));
      expect(status.user).toBeNull();
      expect(status.site).toMatchObject({ url: site.url, anonymous: true });
      const categories = unwrap(await app.services.api.getCategories());
      // Before the first sync the tree is empty: the first sync lists it.
      if (categories.length === 0) unwrap(await app.services.api.syncNow());
      const tree = unwrap(await app.services.api.getCategories());
      const chosen = tree.slice(0, 2).map((c) => c.name);
      expect(chosen).toHaveLength(2);
      unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: chosen, guideids: [] }));
      const outcome = unwrap(await app.services.api.syncNow());
      expect(outcome.status, outcome.error?.message).toBe('complete');
      const capabilities = unwrap(await app.services.api.getStatus()).capabilities!;
      // Without an account there is no work log and no quizzes: the sync did not ask for them.
      expect(capabilities.modules.work_log).toBe('sign_in');
      expect(unwrap(await app.services.api.listQuizzes())).toEqual([]);

      const whole = (await allLocalGuides(app.services.api)).filter((g) => g.offline === 'full');
      expect(whole.length).toBeGreaterThan(0);
      const libraryBefore = (await allLocalGuides(app.services.api)).length;

      // Signing in later keeps the library: nothing is forgotten, nothing downloaded again.
      const { email, password } = DEMO_ACCOUNTS.tech1;
      const signedIn = unwrap(await app.services.api.signIn({ siteUrl: site.url, email, password }));
      expect(signedIn.user?.username).toBeTruthy();
      expect(
        (await allLocalGuides(app.services.api)).filter((g) => g.offline === 'full').map((g) => g.guideid),
      ).toEqual(whole.map((g) => g.guideid));
      expect((await allLocalGuides(app.services.api)).length).toBe(libraryBefore);
      // Signed in, the next sync asks again what was for members only, and downloads no guide again.
      const after = unwrap(await app.services.api.syncNow());
      expect(after).toMatchObject({ status: 'complete', changed: 0 });
      expect(unwrap(await app.services.api.getStatus()).capabilities?.modules.work_log).toBe('offered');

      await site.close();
      for (const { guideid } of whole) {
        const guide = unwrap(await app.services.api.getGuide(guideid));
        expect(guide.steps.length).toBeGreaterThan(0);
        for (const url of mediaOf(guide)) expect(app.services.resolveMedia(url), url).not.toBeNull();
      }
    } finally {
      await app.dispose();
      await site.close();
    }
  });

  it('a members-only site says so in plain words', async () => {
    const site = await startDemoSite({ publicReads: false });
    const app = makeServices();
    try {
      const result = await app.services.api.connectPublic({ siteUrl: site.url });
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/members only/) });
      expect(unwrap(await app.services.api.getStatus()).site).toBeNull();
    } finally {
      await app.dispose();
      await site.close();
    }
  });
});
