import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteHttp } from '../../electron/core/api/http.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import type { RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { startTestSite } from '../server/helpers.ts';

// Issue 25, acceptance 4: signing in to an iFixit-dialect site needs its application id (`X-App-Id`);
// the app sent none and the technician could not enter one, so every sign-in ended in the site's 400
// "Invalid app id". The id is kept with the site and sent on every request.

const { email, password } = DEMO_ACCOUNTS.tech1;
let site: RunningSite;
let reference: RunningSite;
const apps: ReturnType<typeof makeServices>[] = [];
beforeAll(async () => {
  [site, reference] = await Promise.all([
    startTestSite({ demo: true, dialect: 'ifixit' }),
    startTestSite({ demo: true }),
  ]);
});
afterAll(async () => {
  for (const app of apps) await app.dispose();
  await Promise.all([site?.close(), reference?.close()]);
});

/** An app whose every request to a site is noted with the X-App-Id it carried. */
function watchedApp(dataDir?: string): {
  app: ReturnType<typeof makeServices>;
  sent: { path: string; appId: string | undefined }[];
} {
  const sent: { path: string; appId: string | undefined }[] = [];
  const app = makeServices(dataDir, {
    http: (url, init) => {
      sent.push({ path: url.pathname, appId: init.headers['X-App-Id'] });
      return siteHttp(url, init);
    },
  });
  apps.push(app);
  return { app, sent };
}

describe('signing in to a site that wants an application id', () => {
  it('without one, says in plain words that the site wants one and where to enter it', async () => {
    const { app } = watchedApp();
    const result = await app.services.api.signIn({ siteUrl: site.url, email, password });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_input');
    expect(result.error.details?.needs).toBe('app_id');
    expect(result.error.message).toMatch(/wants an application id .*Invalid app id.* enter it under Advanced/);
    expect(result.error.message).not.toMatch(/POST|\/user\/token|400/);
  });

  it('with a wrong one, names the id it did not accept', async () => {
    const { app } = watchedApp();
    const result = await app.services.api.signIn({ siteUrl: site.url, email, password, appId: 'not-ours' });
    expect(!result.ok && result.error.message).toMatch(/did not accept the application id "not-ours"/);
  });

  it('with the right one, signs in, keeps it with the site and sends it on every request', async () => {
    const { app, sent } = watchedApp();
    const status = unwrap(
      await app.services.api.signIn({ siteUrl: site.url, email, password, appId: ` ${DEMO_APP_ID} ` }),
    );
    expect(status.user?.username).toBeTruthy();
    expect(status.site?.appId).toBe(DEMO_APP_ID);
    expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
    const api = sent.filter((request) => request.path.startsWith('/api/2.0/'));
    expect(api.length).toBeGreaterThan(10);
    expect(api.filter((request) => request.appId !== DEMO_APP_ID)).toEqual([]);
  });

  it('signs in a second technician on the same laptop with it', async () => {
    const { app } = watchedApp();
    unwrap(await app.services.api.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
    const tech2 = DEMO_ACCOUNTS.tech2;
    const status = unwrap(await app.services.api.switchTechnician({ email: tech2.email, password: tech2.password }));
    expect(status.user?.userid).not.toBeUndefined();
    expect(status.site?.appId).toBe(DEMO_APP_ID);
  });

  it('keeps sending it after the app starts again', async () => {
    const first = watchedApp();
    unwrap(await first.app.services.api.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
    await first.app.services.close();
    const again = watchedApp(first.app.dataDir);
    await again.app.services.start();
    expect(unwrap(await again.app.services.api.getStatus()).network).toBe('online');
    expect(again.sent.length).toBeGreaterThan(0);
    expect(again.sent.every((request) => request.appId === DEMO_APP_ID)).toBe(true);
  });

  it('a site that wants none signs in as before, without one', async () => {
    const { app, sent } = watchedApp();
    unwrap(await app.services.api.signIn({ siteUrl: reference.url, email, password }));
    expect(sent.every((request) => request.appId === undefined)).toBe(true);
  });
});
