import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { seedDemoPeople } from '../../server/users/seed.ts';
import { counters, rawRequest } from './http.ts';

// Issue 26, attack 6: the throttle locked out the owner, not the guesser. Ten wrong passwords for tech2
// made tech2's right password answer 429, and fifty failures for made-up e-mails from one address locked
// every account behind that address (a workshop behind one NAT). Real server, real HTTP; another loopback
// address (127.0.0.2) plays the guesser's machine.
const GUESSER = '127.0.0.2';
const OWNER = '127.0.0.1';

let site: RunningSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const start = async (throttle: { perAccount: number; perAddress: number; windowSeconds: number }) =>
  (site = await startSite({ testHooks: true, signInThrottle: throttle, seed: (db) => seedDemoPeople(db) }));

const attempt = (email: string, password: string, from: string) =>
  rawRequest(site!.port, {
    method: 'POST',
    path: '/api/2.0/user/token',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
    from,
  });

describe('the throttle holds the guesser, never the owner', () => {
  it("ten wrong passwords for tech2 from one machine leave tech2's right password working from another", async () => {
    await start({ perAccount: 10, perAddress: 50, windowSeconds: 60 });
    const { email, password } = DEMO_ACCOUNTS.tech2;
    for (let i = 1; i <= 10; i++) expect((await attempt(email, `guess ${i}`, GUESSER)).status).toBe(401);
    // The guesser is held, whatever it sends: a right guess is not told apart from a wrong one.
    const held = await attempt(email, password, GUESSER);
    expect(held.status).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The owner, from their own machine, signs in at once.
    const owner = await attempt(email, password, OWNER);
    expect(owner.status).toBe(201);
    expect(owner.body.authToken).toMatch(/^[0-9a-f]{64}$/);
    // And their own typo is theirs: it does not free the guesser.
    expect((await attempt(email, 'owner typo', OWNER)).status).toBe(401);
    expect((await attempt(email, 'guess 11', GUESSER)).status).toBe(429);
  });

  it('fifty failures for made-up e-mails from a workshop address leave every account there signing in', async () => {
    await start({ perAccount: 10, perAddress: 50, windowSeconds: 60 });
    for (let i = 0; i < 50; i++) expect((await attempt(`ghost${i}@nowhere.test`, 'guess', GUESSER)).status).toBe(401);
    // The sprayer is slowed to one guess per account: a second guess at an account it tried is held.
    expect((await attempt('ghost0@nowhere.test', 'guess again', GUESSER)).status).toBe(429);
    const checks = (await counters(site!)).passwordChecks;
    expect((await attempt(DEMO_ACCOUNTS.tech2.email, 'one guess', GUESSER)).status).toBe(401);
    expect((await attempt(DEMO_ACCOUNTS.tech2.email, 'second guess', GUESSER)).status).toBe(429);
    expect((await counters(site!)).passwordChecks - checks).toBe(1);
    // A colleague behind the same address, with the right password, is let in.
    for (const name of ['tech1', 'author', 'admin'] as const) {
      const colleague = await attempt(DEMO_ACCOUNTS[name].email, DEMO_ACCOUNTS[name].password, GUESSER);
      expect(colleague.status, name).toBe(201);
    }
  });
});
