import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { attempt, audit, startPeopleSite, TECH_SIGN_IN } from './helpers.ts';
import {
  perRequestSchedule,
  seededSchedule,
  startFaultProxy,
  type FaultProxy,
  type Schedule,
  type SeededOptions,
} from './proxy.ts';

// Seeded schedules end to end, against the real reference site.
let site: RunningSite;

beforeAll(async () => {
  site = await startPeopleSite();
});
afterAll(() => site.close());

async function withProxy<T>(options: SeededOptions, seed: number, body: (proxy: FaultProxy) => Promise<T>): Promise<T> {
  return withSchedule(seededSchedule(seed, options), body);
}

async function withSchedule<T>(schedule: Schedule, body: (proxy: FaultProxy) => Promise<T>): Promise<T> {
  const proxy = await startFaultProxy({ target: { port: site.port }, schedule });
  try {
    return await body(proxy);
  } finally {
    await proxy.close();
  }
}

/** Sequential GETs; what the client saw for each. */
const sequentialGets = (count: number) => async (proxy: FaultProxy) => {
  const seen: (number | 'error')[] = [];
  for (let i = 0; i < count; i++) {
    const result = await attempt(`${proxy.url}/api/2.0/user`);
    seen.push(result === 'error' ? 'error' : result.status);
  }
  await proxy.settled();
  return { seen, faults: proxy.log.map((entry) => entry.fault) };
};

describe('seeded schedules through the proxy', () => {
  const options: SeededOptions = {
    rates: { reset: 0.15, status: 0.2, delay: 0.1, cutBody: 0.15, dropResponse: 0.1 },
    delayMs: [1, 10],
  };

  it('the same seed gives the same faults and the same client-visible results', async () => {
    const first = await withProxy(options, 1234, sequentialGets(40));
    const second = await withProxy(options, 1234, sequentialGets(40));
    const other = await withProxy(options, 4321, sequentialGets(40));
    expect(second).toEqual(first);
    expect(other.faults).not.toEqual(first.faults);
    // Each kind shows up as it should: failures for reset/cut/drop, the injected status, the site's 401.
    first.faults.forEach((fault, i) => {
      const expected =
        fault.kind === 'status' ? fault.status : fault.kind === 'pass' || fault.kind === 'delay' ? 401 : 'error';
      expect(first.seen[i], `request ${i + 1} (${fault.kind})`).toBe(expected);
    });
    expect(new Set(first.faults.map((fault) => fault.kind))).toEqual(
      new Set(['pass', 'reset', 'status', 'delay', 'cutBody', 'dropResponse']),
    );
  });

  it("the log accounts for the site's effects exactly: a retrying client, seen from both sides", async () => {
    const before = (await audit(site, 'token')).length;
    const rates = { reset: 0.2, status: 0.2, cutBody: 0.15, dropResponse: 0.15, delay: 0.1 };
    const { succeeded, committed } = await withProxy(
      { rates, onlyPaths: /\/user\/token$/, maxFaults: 30 },
      77,
      async (proxy) => {
        let succeeded = 0;
        for (let i = 0; i < 8; i++) {
          // Bounded retries: maxFaults guarantees a pass well within them.
          for (let tries = 0; tries < 40; tries++) {
            const result = await attempt(`${proxy.url}/api/2.0/user/token`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: TECH_SIGN_IN,
            });
            if (result !== 'error' && result.status === 201) {
              succeeded += 1;
              break;
            }
          }
        }
        await proxy.settled();
        expect(proxy.counts.dropResponse + proxy.counts.cutBody).toBeGreaterThan(0);
        return {
          succeeded,
          committed: proxy.requestsTo(/\/user\/token$/, 'POST').filter((entry) => entry.upstreamStatus === 201).length,
        };
      },
    );
    expect(succeeded).toBe(8);
    // Dropped and cut replies were committed too: more effects than successes, and the log knows each one.
    expect(committed).toBeGreaterThan(succeeded);
    expect((await audit(site, 'token')).length - before).toBe(committed);
  });

  it('perRequestSchedule: concurrent clients see the same faults per request, and retries converge', async () => {
    const paths = Array.from({ length: 12 }, (_, i) => `/api/2.0/users/${i + 1}`);
    const run = (order: readonly string[]) =>
      withSchedule(
        perRequestSchedule(31, { rates: { reset: 0.25, status: 0.25, cutBody: 0.2 }, maxFailuresPerRequest: 2 }),
        async (proxy) => {
          // Every path fetched concurrently, each retried until it succeeds (at most 3 tries needed).
          const results = await Promise.all(
            order.map(async (path) => {
              for (let tries = 1; tries <= 3; tries++) {
                const result = await attempt(proxy.url + path);
                if (result !== 'error' && result.status === 200) return tries;
              }
              return 'gave up';
            }),
          );
          await proxy.settled();
          const faults = Object.fromEntries(
            order.map((path) => [path, proxy.requestsTo(new RegExp(`${path}$`)).map((entry) => entry.fault.kind)]),
          );
          return { tries: Object.fromEntries(order.map((path, i) => [path, results[i]])), faults };
        },
      );
    const forward = await run(paths);
    const backward = await run([...paths].reverse());
    expect(backward).toEqual(forward);
    expect(Object.values(forward.tries).every((tries) => typeof tries === 'number')).toBe(true);
    expect(
      Object.values(forward.faults)
        .flat()
        .filter((kind) => kind !== 'pass').length,
    ).toBeGreaterThan(0);
  });
});
