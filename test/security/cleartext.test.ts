import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { makeServices } from '../helpers/services.ts';
import { siteHttp } from '../../electron/core/api/http.ts';

// Issue 14, attack 8: http:// addresses were accepted for any host, so a password could cross a network
// in clear text. Now only this machine gets plain http without the technician's say-so.
let site: RunningSite;
beforeAll(async () => {
  site = await startDemoSite();
});
afterAll(async () => {
  await site.close();
});

/** Services whose HTTP sends every request meant for `host` to the local demo site instead, counted. */
function pretendingHost(host: string) {
  const asked: string[] = [];
  const app = makeServices(undefined, {
    http: (target, init) => {
      const url = new URL(target);
      asked.push(url.host);
      if (url.host === host) url.host = new URL(site.url).host;
      return siteHttp(url, init);
    },
  });
  return { app, asked };
}

describe('plain http only with consent', () => {
  it('refuses to send a sign-in over plain http to another machine, asking first, with no request made', async () => {
    const { app, asked } = pretendingHost('192.0.2.10:8080');
    try {
      const { email, password } = DEMO_ACCOUNTS.tech1;
      const refused = await app.services.api.signIn({ siteUrl: 'http://192.0.2.10:8080', email, password });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { needs: 'insecure' } } });
      expect(asked).toEqual([]);
      const token = await app.services.api.connectWithToken({ siteUrl: 'http://192.0.2.10:8080', token: 'x' });
      expect(token).toMatchObject({ ok: false, error: { details: { needs: 'insecure' } } });
      expect(asked).toEqual([]);

      const confirmed = await app.services.api.signIn({
        siteUrl: 'http://192.0.2.10:8080',
        email,
        password,
        allowInsecure: true,
      });
      expect(confirmed).toMatchObject({
        ok: true,
        value: { site: { url: 'http://192.0.2.10:8080' }, user: { username: DEMO_ACCOUNTS.tech1.username } },
      });
      expect(asked.length).toBeGreaterThan(0);
    } finally {
      await app.dispose();
    }
  });

  it('lets this machine be reached over http (the demo workshop, a local server)', async () => {
    const { app } = pretendingHost('none');
    try {
      const { email, password } = DEMO_ACCOUNTS.tech1;
      expect(
        (await app.services.api.signIn({ siteUrl: site.url.replace('127.0.0.1', 'localhost'), email, password })).ok,
      ).toBe(true);
    } finally {
      await app.dispose();
    }
  });
});
