import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { perRequestSchedule, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { formGuideOnSite } from '../helpers/worklog.ts';
import { expectLibraryEqualsServer } from '../helpers/convergence.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { SEEDED_TIMEOUT_MS, seedCount, seedStart } from '../helpers/seeds.ts';

// Through a proxy that resets, fails, delays, cuts, stalls and drops, over many seeded schedules, the
// library always ends equal to the server's. Each schedule runs a fresh client against one real site.
const SCHEDULES = seedCount(50, 6);
const MAX_SYNCS = 20;
let site: RunningSite;
let proxy: FaultProxy;
// Three guides are kept whole (the rest as summaries): every kind of content, at a cost CI can pay 50 times.
let whole: number[];

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port }, maxStallMs: 400, upstreamTimeoutMs: 5_000 });
  const admin = await signIn(site, 'admin');
  const withQuiz = (await api(site, 'GET', '/guides', { query: { limit: 200 } })).body as { guideid: number }[];
  const quizGuide = (
    await Promise.all(
      withQuiz.map(async (g) => ({
        id: g.guideid,
        quizzes: (
          (await api(site, 'GET', `/quizzes/associations/${g.guideid}`, { token: admin.token })).body as unknown[]
        ).length,
      })),
    )
  ).find((g) => g.quizzes > 0)!.id;
  whole = [...new Set([await formGuideOnSite(site.apiUrl, admin.token), quizGuide, withQuiz[0]!.guideid])];
});
afterAll(async () => {
  await proxy?.close();
  await site?.close();
});

describe('sync through a faulty network', () => {
  it(
    `converges to the server's state over ${SCHEDULES} seeded fault schedules`,
    { timeout: SEEDED_TIMEOUT_MS },
    async () => {
      const faultsSeen = new Map<string, number>();
      for (let seed = seedStart(1); seed < seedStart(1) + SCHEDULES; seed++) {
        proxy.passAll();
        proxy.clearLog();
        // The client's own time limit: every fault here ends within half a second (a stall closes the
        // connection), so a shorter one would only fail answers that a busy machine is slow to give.
        const app = makeServices(undefined, { concurrency: { guides: 4, media: 4 } });
        try {
          unwrap(
            await app.services.api.signIn({
              siteUrl: proxy.url,
              email: DEMO_ACCOUNTS.tech1.email,
              password: DEMO_ACCOUNTS.tech1.password,
            }),
          );
          unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: whole }));
          proxy.setSchedule(
            perRequestSchedule(seed, {
              rates: {
                reset: 0.03,
                status: 0.04,
                delay: 0.04,
                cutBody: 0.03,
                stall: 0.01,
                dropResponse: 0.03,
                resetIdle: 0.02,
              },
              maxFailuresPerRequest: 2,
              stallMs: 400,
              delayMs: [1, 30],
            }),
          );
          let syncs = 0;
          let status = '';
          while (syncs < MAX_SYNCS && status !== 'complete') {
            status = unwrap(await app.services.api.syncNow()).status;
            syncs++;
          }
          expect(status, `seed ${seed}: still ${status} after ${syncs} syncs`).toBe('complete');
          await expectLibraryEqualsServer(app, site, `seed ${seed}`, whole);
          for (const [kind, count] of Object.entries(proxy.counts))
            faultsSeen.set(kind, (faultsSeen.get(kind) ?? 0) + count);
        } finally {
          await app.dispose();
        }
      }
      // The schedules really injected every kind of fault.
      for (const kind of ['reset', 'status', 'delay', 'cutBody', 'stall', 'dropResponse', 'resetIdle']) {
        expect(faultsSeen.get(kind) ?? 0, kind).toBeGreaterThan(0);
      }
    },
  );
});
