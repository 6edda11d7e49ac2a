import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { always, onPaths } from '../fault/proxy.ts';
import { unwrap } from '../helpers/library.ts';
import { overProxyForFile } from '../helpers/services.ts';
import { api, signIn } from '../server/helpers.ts';

// "Who am I" (GET /user) with a technician's kept sign-in, answered about another user: a faulty site, or
// answers mixed up on the way (the fault proxy gives the site admin's answer). The technician is not given
// the other's name and privileges (an admin reads every private guide kept on a shared computer); their
// sign-in, whose answers cannot be told from another's, is forgotten, and they sign in again.
const over = overProxyForFile(false);

describe("the site's answer to who the technician is", () => {
  it("about another user, gives the technician neither the other's name nor privileges", async () => {
    const { site, proxy, app } = over;
    const { api: app_ } = app.services;
    expect(unwrap(await app_.getStatus()).user).toMatchObject({ username: DEMO_ACCOUNTS.tech1.username });
    const admin = await signIn(site, 'admin');
    const adminUser = (await api(site, 'GET', '/user', { token: admin.token })).body as { privileges: string[] };
    expect(adminUser.privileges).toContain('Admin');
    const asked = () => proxy.requestsTo(/^\/api\/2\.0\/user$/, 'GET').length;
    const before = asked();
    proxy.setSchedule(
      onPaths(/^\/api\/2\.0\/user$/, always({ kind: 'rewrite', body: () => JSON.stringify(adminUser) })),
    );
    try {
      // The shell says the network is back: the site is asked who the technician is.
      app.services.setNetworkHint(true);
      await expect.poll(asked, { timeout: 10_000 }).toBeGreaterThan(before);
      await expect.poll(async () => unwrap(await app_.getStatus()).user, { timeout: 10_000 }).toBeNull();
      const [tech1] = unwrap(await app_.listTechnicians());
      expect(tech1).toMatchObject({ username: DEMO_ACCOUNTS.tech1.username, signIn: 'refused' });
    } finally {
      proxy.passAll();
    }
  });
});
