import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../electron/contract.ts';
import { ApiError } from '../../electron/core/api/errors.ts';
import { ApiTransport, retryAfterSeconds } from '../../electron/core/api/transport.ts';
import { Store } from '../../electron/core/db/store.ts';
import { EventHub } from '../../electron/core/events.ts';
import { MAX_DELAY_MS, MIN_DELAY_MS, retryDelayMs } from '../../electron/core/outbox/backoff.ts';
import { Outbox } from '../../electron/core/outbox/outbox.ts';
import { makeTempDir } from '../helpers/tmp.ts';

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
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempts, draw) => {
        const delay = retryDelayMs(attempts, () => draw);
        return Number.isInteger(delay) && delay >= 0 && delay < MAX_DELAY_MS && delay < MIN_DELAY_MS * 2 ** Math.max(0, attempts - 1);
      }),
    );
  });

  it("are never sooner than the site's Retry-After, which counts up to four times the maximum", () => {
    expect(retryDelayMs(1, () => 0, 30)).toBe(30_000);
    expect(retryDelayMs(10, () => 0.999_999, 1)).toBe(MAX_DELAY_MS - 1);
    expect(retryDelayMs(1, () => 0, 10_000)).toBe(4 * MAX_DELAY_MS);
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
    const fetch: typeof globalThis.fetch = async () => new Response('{"message":"Slow down"}', { status: 429, headers: { 'Retry-After': '7' } });
    const error = await new ApiTransport({ siteUrl: 'https://site.test', token: 't', fetch }).request('GET', '/user').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfter: 7, transient: true, message: 'Slow down' });
  });
});

// The runner against a site whose answers each test scripts: one work session on the site, a pause queued.
const NOW = 1_750_000_000_000;
let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
let outbox: Outbox;
let events: AppEvent[];
let requests: string[];
let answer: (url: string) => Response;

function queuePause(sessionId: string, entryid: number): void {
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
    });
    store.outbox.add({ chain: sessionId, kind: 'pause', payload: { sessionId }, actedAt: NOW / 1000 - 60, now: NOW / 1000 });
  });
}

const entry = (entryid: number) => ({ entryid, guideid: 7, userid: 4, workorderid: 'WO-1', starttime: NOW / 1000 - 600, status: 'paused', revisionid: 2 });

beforeEach(() => {
  tmp = makeTempDir('outbox-retry');
  store = new Store({ file: path.join(tmp.dir, 'fieldguide.sqlite'), picturesFile: path.join(tmp.dir, 'media', 'pictures.sqlite'), log: () => {} });
  const hub = new EventHub();
  events = [];
  hub.subscribe((event) => events.push(event));
  requests = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = String(input);
    requests.push(url);
    return answer(url);
  };
  const transport = new ApiTransport({ siteUrl: 'https://site.test', token: 't', fetch });
  outbox = new Outbox({ store, events: hub, transport: () => transport, attachmentsDir: path.join(tmp.dir, 'attachments'), nowMs: () => NOW, random: () => 0.5, log: () => {} });
});

afterEach(async () => {
  await outbox.close();
  store.close();
  tmp.remove();
});

describe('the outbox runner', () => {
  it("waits out a 429's Retry-After before sending the action again, and says why", async () => {
    queuePause('s1', 51);
    answer = () => new Response('{"message":"Too many requests"}', { status: 429, headers: { 'Retry-After': '600' } });
    await outbox.flush();
    const [row] = store.outbox.all();
    expect(row).toMatchObject({ state: 'pending', attempts: 1, lastError: 'Too many requests', unknownOutcome: false });
    expect(row!.nextAttemptAt).toBe(NOW + 600_000);
    expect(requests).toHaveLength(1);
  });

  it('backs a 503 off by the jittered delay of its attempt, the outcome unknown (it may have landed)', async () => {
    queuePause('s1', 51);
    answer = () => new Response('{"message":"Down for maintenance"}', { status: 503 });
    await outbox.flush();
    const [row] = store.outbox.all();
    expect(row).toMatchObject({ state: 'pending', attempts: 1, unknownOutcome: true });
    expect(row!.nextAttemptAt).toBe(NOW + retryDelayMs(1, () => 0.5));
  });

  it('pauses the whole outbox on a 401 until the technician signs in again, then sends everything', async () => {
    queuePause('s1', 51);
    queuePause('s2', 52);
    answer = () => new Response('{"message":"Token expired"}', { status: 401 });
    await outbox.flush();
    expect(outbox.pausedFor()).toBe('unauthorized');
    expect(outbox.summary()).toMatchObject({ pending: 2, failed: 0, pausedFor: 'unauthorized' });
    expect(store.outbox.all().map((row) => row.lastError)).toContain('Sign in again to send this.');
    expect(events.filter((e) => e.name === 'outbox').at(-1)?.payload).toMatchObject({ pausedFor: 'unauthorized' });

    const sent = requests.length;
    answer = (url) => new Response(JSON.stringify(entry(Number(/work_log\/(\d+)\//.exec(url)![1]))), { status: 200 });
    await outbox.flush();
    expect(requests).toHaveLength(sent);

    outbox.resume();
    await outbox.flush();
    expect(outbox.pausedFor()).toBeNull();
    expect(store.outbox.all()).toEqual([]);
    expect(requests.slice(sent).sort()).toEqual(['https://site.test/api/2.0/work_log/51/pause?revisionid=1', 'https://site.test/api/2.0/work_log/52/pause?revisionid=1']);
  });
});
