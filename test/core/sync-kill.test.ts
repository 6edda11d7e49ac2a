import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { mulberry32 } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { formGuideOnSite } from '../helpers/worklog.ts';
import { expectDatabasesIntact, expectLibraryEqualsServer } from '../helpers/convergence.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { runKillableChild } from '../helpers/child.ts';
import { SEEDED_TIMEOUT_MS, seedCount, seedStart } from '../helpers/seeds.ts';

// SIGKILL a sync process at seeded points (counted in requests made): the database stays intact and
// the next sync completes to the server's state.
const RUNS = seedCount(20, 4);
const child = path.resolve(import.meta.dirname, '../helpers/sync-child.ts');
let site: RunningSite;
// A few guides kept whole (with a form, a quiz and media), the rest as summaries: 20 runs stay quick.
let whole: number[];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  const admin = await signIn(site, 'admin');
  const listed = (await api(site, 'GET', '/guides', { query: { limit: 200 } })).body as { guideid: number }[];
  whole = [...new Set([await formGuideOnSite(site.apiUrl, admin.token), listed[0]!.guideid, listed[1]!.guideid])];
});
afterAll(async () => {
  await site?.close();
});

const runChild = (dataDir: string, killAt: number | null) => runKillableChild(child, [dataDir], killAt);

async function signedInDataDir(): Promise<ReturnType<typeof makeTempDir>> {
  const tmp = makeTempDir('kill');
  const app = makeServices(tmp.dir);
  unwrap(
    await app.services.api.signIn({
      siteUrl: site.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: whole }));
  await app.services.close();
  return tmp;
}

describe('killing a sync', () => {
  it(`at ${RUNS} seeded points loses nothing and the next sync completes`, { timeout: SEEDED_TIMEOUT_MS }, async () => {
    const reference = await signedInDataDir();
    const full = await runChild(reference.dir, null);
    reference.remove();
    expect(full.last).toBe('done complete');
    expect(full.requests).toBeGreaterThan(20);

    const random = mulberry32(seedStart(4242));
    for (let run = 1; run <= RUNS; run++) {
      const killAt = 1 + Math.floor(random() * full.requests);
      const tmp = await signedInDataDir();
      try {
        const outcome = await runChild(tmp.dir, killAt);
        // Not killed: the sync ended before that request; its last line says how ("done failed", …).
        expect(outcome.killed, `run ${run}: killed at request ${killAt}; the child said "${outcome.last}"`).toBe(true);
        expectDatabasesIntact(tmp.dir, `run ${run}`);
        const app = makeServices(tmp.dir);
        try {
          expect(unwrap(await app.services.api.syncNow()).status, `run ${run}`).toBe('complete');
          await expectLibraryEqualsServer(app, site, `run ${run} (killed at request ${killAt})`, whole);
        } finally {
          await app.services.close();
        }
      } finally {
        tmp.remove();
      }
    }
  });
});
