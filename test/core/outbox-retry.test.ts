import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppEvent } from '../../electron/contract.ts';
import { ApiError } from '../../electron/core/api/errors.ts';
import { classify } from '../../electron/core/api/failure.ts';
import { ApiTransport, retryAfterSeconds } from '../../electron/core/api/transport.ts';
import type { Store } from '../../electron/core/db/store.ts';
import { EventHub } from '../../electron/core/events.ts';
import {
  isStuck,
  MAX_DELAY_MS,
  MIN_DELAY_MS,
  retryDelayMs,
  STUCK_AFTER_REFUSALS,
  STUCK_AFTER_SECONDS,
  STUCK_MIN_SECONDS,
} from '../../electron/core/outbox/backoff.ts';
import { Outbox } from '../../electron/core/outbox/outbox.ts';
import { worklogOutbox } from '../../electron/core/worklog/replay/index.ts';
import { startAction } from '../../electron/core/worklog/replay/start.ts';
import { TRANSITION_ACTIONS } from '../../electron/core/worklog/replay/transition.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { fetchHttp } from '../helpers/fetch-http.ts';
import { openTestStore } from '../helpers/store.ts';

describe('retry delays', () => {
  it('are full jitter under a ceiling that doubles from the minimum up to the maximum', () => {
    const justUnderOne = () => 0.999_999;
    expect(retryDelayMs(1, () => 0)).toBe(0);
    expect(retryDelayMs(1, justUnderOne)).toBe(MIN_DELAY_MS - 1);
    expect(retryDelayMs(2, justUnderOne)).toBe(2 * MIN_DELAY_MS - 1);
    expect(retryDelayMs(4, justUnderOne)).toBe(8 * MIN_DELAY_MS - 1);
    expect(retryDelayMs(30, justUnderOne)).toBe(MAX_DELAY_MS - 1);
    expect(retryDelayMs(0, justUnderOne)).toBe(MIN_DELAY_MS - 1);
  });

  it('stay within [0, maximum) for any attempt count and any draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempts, draw) => {
          const delay = retryDelayMs(attempts, () => draw);
          return (
            Number.isInteger(delay) &&
            delay >= 0 &&
            delay < MAX_DELAY_MS &&
            delay < MIN_DELAY_MS * 2 ** Math.max(0, attempts - 1)
          );
        },
      ),
    );
  });

  it("are never sooner than the site's Retry-After, which counts up to four times the maximum", () => {
    expect(retryDelayMs(1, () => 0, 30)).toBe(30_000);
    expect(retryDelayMs(10, () => 0.999_999, 1)).toBe(MAX_DELAY_MS - 1);
    expect(retryDelayMs(1, () => 0, 10_000)).toBe(4 * MAX_DELAY_MS);
  });
});

describe('stuck', () => {
  it('needs the site to refuse many times in a row over half an hour, or a few times over six hours', () => {
    expect(isStuck(STUCK_AFTER_REFUSALS, STUCK_MIN_SECONDS)).toBe(true);
    expect(isStuck(STUCK_AFTER_REFUSALS * 10, STUCK_MIN_SECONDS - 1)).toBe(false);
    expect(isStuck(STUCK_AFTER_REFUSALS - 1, STUCK_AFTER_SECONDS - 1)).toBe(false);
    expect(isStuck(3, STUCK_AFTER_SECONDS)).toBe(true);
    expect(isStuck(2, 10 * STUCK_AFTER_SECONDS)).toBe(false);
    expect(isStuck(0, 0)).toBe(false);
  });
});

describe('Retry-After', () => {
  it('is read as seconds or as an HTTP date, and ignored when it is neither', () => {
    const now = Date.parse('2025-03-01T10:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Sat, 01 Mar 2025 10:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Sat, 01 Mar 2025 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });

  it('of a 429 answer reaches the error the transport throws', async () => {
    const fetch: typeof globalThis.fetch = async () =>
      new Response('{"message":"Slow down"}', { status: 429, headers: { 'Retry-After': '7' } });
    const error = await new ApiTransport({ siteUrl: 'https://site.test', token: 't', http: fetchHttp(fetch) })
      .request('GET', '/user')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfter: 7, message: 'Slow down' });
    expect(classify(error)).toMatchObject({ kind: 'busy', limit: 'rate', retryAfter: 7, message: 'Slow down' });
  });
});

// The runner against a site whose answers each test scripts: one work session on the site, a pause queued.
const NOW = 1_750_000_000_000;
let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
let outbox: Outbox;
let events: AppEvent[];
let requests: string[];
let answer: (url: string, token: string | null) => Response;
/** The site answers its n-th request after n × this many ms (0: at once). */
let answerStaggerMs: number;
/** Two technicians of the laptop, A and B, each with their own token (null: their sign-in is not kept). */
let tokens: Map<number, string | null>;
let technicianA: number;
let technicianB: number;

function queuePause(sessionId: string, entryid: number, technician = technicianA): void {
  store.transaction(() => {
    store.sessions.insert({
      id: sessionId,
      entryid,
      guideid: 7,
      guideRevisionid: 1,
      guideTitle: 'Belt',
      workorderid: 'WO-1',
      userid: 4,
      status: 'paused',
      serverRevisionid: 1,
      startedAt: NOW / 1000 - 600,
      pausedAt: NOW / 1000 - 60,
      pauseSeconds: 0,
      activeStepid: null,
      now: NOW / 1000,
      technician,
    });
    const at = { chain: sessionId, actedAt: NOW / 1000 - 60, now: NOW / 1000, technician };
    store.outbox.add(TRANSITION_ACTIONS.pause, { sessionId }, at);
  });
}

const entry = (entryid: number) => ({
  entryid,
  guideid: 7,
  userid: 4,
  workorderid: 'WO-1',
  starttime: NOW / 1000 - 600,
  status: 'paused',
  revisionid: 2,
});

beforeEach(() => {
  tmp = makeTempDir('outbox-retry');
  store = openTestStore(tmp.dir);
  const hub = new EventHub();
  events = [];
  hub.subscribe((event) => events.push(event));
  requests = [];
  answerStaggerMs = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input);
    const token = /^api (.+)$/.exec(new Headers(init?.headers).get('Authorization') ?? '')?.[1] ?? null;
    requests.push(`${token} ${url}`);
    const wait = answerStaggerMs * requests.length;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return answer(url, token);
  };
  const user = (userid: number) => ({
    userid,
    username: `Tech ${userid}`,
    uniqueUsername: null,
    privileges: [],
    imageUrl: null,
  });
  technicianA = store.technicians.signedIn('https://site.test', user(4), null, NOW / 1000);
  technicianB = store.technicians.signedIn('https://site.test', user(5), null, NOW / 1000);
  tokens = new Map([
    [technicianA, 'token-a'],
    [technicianB, 'token-b'],
  ]);
  const transportFor = (id: number) => {
    const token = tokens.get(id);
    return token ? new ApiTransport({ siteUrl: 'https://site.test', token, http: fetchHttp(fetch) }) : null;
  };
  outbox = new Outbox({
    store,
    events: hub,
    transportFor,
    sendable: () => [...tokens].filter(([, token]) => token !== null).map(([id]) => id),
    refused: (id) => tokens.set(id, null),
    current: () => technicianA,
    others: () => [],
    nowMs: () => NOW,
    random: () => 0.5,
    log: () => {},
  });
  const attachmentsDir = path.join(tmp.dir, 'attachments');
  outbox.register(
    worklogOutbox({
      ...{ store, events: hub, attachmentsDir, current: () => technicianA, now: () => NOW / 1000 },
      keptFiles: { consider: () => {} },
    }),
  );
});

afterEach(async () => {
  await outbox.close();
  store.close();
  tmp.remove();
});

describe('the outbox runner', () => {
  it('tells the views at most every 200 ms while answers arrive in turns of their own, and the last move', async () => {
    for (let n = 1; n <= 16; n++) queuePause(`s${n}`, 50 + n);
    answer = (url) => new Response(JSON.stringify(entry(Number(/work_log\/(\d+)\//.exec(url)![1]))), { status: 200 });
    // Each answer in a turn of its own, 15 ms after the one before.
    answerStaggerMs = 15;
    events.length = 0;
    const started = performance.now();
    outbox.kick();
    await vi.waitFor(() => expect(store.outbox.all(technicianA)).toEqual([]), { timeout: 20_000 });
    // The last move is told too, once its 200 ms are up.
    await vi.waitFor(
      () => expect(events.filter((event) => event.name === 'outbox').at(-1)?.payload).toMatchObject({ pending: 0 }),
      {
        timeout: 5_000,
      },
    );
    const elapsed = performance.now() - started;
    const told = events.filter((event) => event.name === 'outbox').length;
    expect(requests).toHaveLength(16);
    // One at the first answer, then one per 200 ms at most (was one per answer: 16).
    expect(told).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 200));
  });

  it("waits out a 429's Retry-After before sending the action again, and says why", async () => {
    queuePause('s1', 51);
    answer = () => new Response('{"message":"Too many requests"}', { status: 429, headers: { 'Retry-After': '600' } });
    await outbox.flush();
    const [row] = store.outbox.all(technicianA);
    expect(row).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Too many requests', unknownOutcome: false });
    expect(row!.nextAttemptAt).toBe(NOW + 600_000);
    expect(requests).toHaveLength(1);
  });

  it('backs a 503 off by the jittered delay of its attempt, the outcome unknown (it may have landed)', async () => {
    queuePause('s1', 51);
    answer = () => new Response('{"message":"Down for maintenance"}', { status: 503 });
    await outbox.flush();
    const [row] = store.outbox.all(technicianA);
    expect(row).toMatchObject({ state: 'pending', attempts: 1, unknownOutcome: true });
    expect(row!.nextAttemptAt).toBe(NOW + retryDelayMs(1, () => 0.5));
  });

  it(
    'still looks a start up before sending it again after a lost answer, ' + 'whatever the failures in between said',
    async () => {
      store.transaction(() => {
        store.sessions.insert({
          id: 's9',
          entryid: null,
          guideid: 7,
          guideRevisionid: 1,
          guideTitle: 'Belt',
          workorderid: 'WO-9',
          userid: 4,
          status: 'started',
          serverRevisionid: null,
          startedAt: NOW / 1000 - 60,
          pausedAt: null,
          pauseSeconds: 0,
          activeStepid: null,
          now: NOW / 1000,
          technician: technicianA,
        });
        const at = { chain: 's9', actedAt: NOW / 1000 - 60, now: NOW / 1000, technician: technicianA };
        store.outbox.add(startAction, { sessionId: 's9', guideid: 7, workorderid: 'WO-9' }, at);
      });
      // The POST may have landed (no answer); the look-up then meets a 429, which says nothing of the POST.
      const answers = [
        () => Promise.reject(new TypeError('socket hang up')),
        () => new Response('{"message":"Slow down"}', { status: 429 }),
      ];
      answer = (url) => {
        const next = answers.shift();
        if (next) return next() as Response;
        return new Response(JSON.stringify({ results: [] }), { status: 200 });
      };
      await outbox.flush();
      await outbox.flush();
      expect(store.outbox.all(technicianA)[0]).toMatchObject({ kind: 'start', unknownOutcome: true });
      await outbox.flush();
      // POST (no answer), the look-up (429), the look-up again (nothing there), and only then the POST again.
      expect(
        requests.map((r) =>
          r.includes('?workorderid=WO-9') || r.includes('&workorderid=WO-9') ? 'look-up' : r.replace(/^\S+ /, ''),
        ),
      ).toEqual(['https://site.test/api/2.0/work_log', 'look-up', 'look-up', 'https://site.test/api/2.0/work_log']);
    },
  );

  it(
    "holds a technician's work on a 401 until they sign in again, " +
      "sends the others' meanwhile, never under another's token",
    async () => {
      queuePause('s1', 51, technicianA);
      queuePause('s2', 52, technicianA);
      queuePause('s3', 53, technicianB);
      const ok = (url: string) =>
        new Response(JSON.stringify(entry(Number(/work_log\/(\d+)\//.exec(url)![1]))), { status: 200 });
      answer = (url, token) =>
        token === 'token-a' ? new Response('{"message":"Token expired"}', { status: 401 }) : ok(url);
      await outbox.flush();
      expect(tokens.get(technicianA)).toBeNull();
      expect(outbox.summary()).toMatchObject({ pending: 2, failed: 0 });
      expect(store.outbox.all(technicianA).map((row) => row.lastError)).toContain('Sign in again to send this.');
      expect(store.outbox.all(technicianB)).toEqual([]);

      const sent = requests.length;
      answer = (url) => ok(url);
      await outbox.flush();
      expect(requests).toHaveLength(sent);

      tokens.set(technicianA, 'token-a2');
      outbox.resume();
      await outbox.flush();
      expect(store.outbox.all(technicianA)).toEqual([]);
      expect(requests.slice(sent).sort()).toEqual([
        'token-a2 https://site.test/api/2.0/work_log/51/pause?revisionid=1',
        'token-a2 https://site.test/api/2.0/work_log/52/pause?revisionid=1',
      ]);
      // Every request of A's sessions went with A's token, B's with B's.
      for (const request of requests)
        expect(request).toMatch(/work_log\/53\//.test(request) ? /^token-b / : /^token-a2? /);
    },
  );
});
