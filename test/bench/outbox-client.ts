// The outbox in a process of its own: queues whole work sessions with the site unreachable (durable
// enqueue latency), then replays them (throughput), then makes the same work with a bare fetch loop at
// the same concurrency (the site's own capacity for those requests). Prints JSON.
import '../../electron/core/threadpool.ts';
import { benchServices } from './bench-services.ts';
import diagnostics from 'node:diagnostics_channel';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { siteHttp } from '../../electron/core/api/http.ts';
import { MAX_JSON_BYTES } from '../../electron/core/api/redirects.ts';
import { runBounded } from '../../electron/core/sync/pool.ts';
import { CHAINS_AT_ONCE } from '../../electron/core/outbox/runner.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startProxyThread } from './proxy-thread.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { threadCpuMs } from './thread-cpu.ts';

const [siteUrl, sessionsArg] = process.argv.slice(2);
if (!siteUrl) throw new Error('usage: outbox-client.ts <siteUrl> [sessions]');
const SESSIONS = Number(sessionsArg ?? 40);
// As many chains at once as the outbox replays (runner.ts), for the bare client too.
const CHAINS = CHAINS_AT_ONCE;
const site = new URL(siteUrl);
// The proxy runs on its own thread (proxy-thread.ts): it is the network, not part of the client.
const proxy = await startProxyThread(Number(site.port));
const tmp = makeTempDir('bench-outbox');
const services = benchServices(tmp.dir);
const api = services.api;
const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
must(
  await api.signIn({ siteUrl: proxy.url, email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
);
const guideid = 2;
must(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
must(await api.syncNow());
const guide = must(await api.getGuide(guideid));
const step = guide.steps.find((s) => s.form && s.form.fields.some((f) => f.type === 'Text Input'))!;
const field = step.form!.fields.find((f) => f.type === 'Text Input')!;

// The site unreachable while the work is taken: nothing listens at its address, as for a laptop off the
// network, so no request leaves. A start tried then is known not to have landed, and the replay sends
// the actions and nothing else (the JSON counts both clients' requests).
const latencies: number[] = [];
const timed = async <T>(call: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const value = await call();
  latencies.push(performance.now() - t);
  return value;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How many requests are out at once on average while it runs (undici's own events: the app's client and
 * Node's fetch both publish them): of CHAINS chains, those not waiting for the site are between an
 * answer and their next request, the time a replay spends on its own work (marks on the disk, answers
 * recorded) and a bare loop does not.
 */
class RequestsOut {
  #out = 0;
  #area = 0;
  #since = performance.now();
  #start = performance.now();

  constructor() {
    const opened = () => this.#step(1);
    const ended = () => this.#step(-1);
    diagnostics.subscribe('undici:request:create', opened);
    diagnostics.subscribe('undici:request:trailers', ended);
    diagnostics.subscribe('undici:request:error', ended);
  }

  reset(): void {
    this.#step(0);
    [this.#area, this.#start] = [0, performance.now()];
  }

  /** The mean number out since the last reset. */
  mean(): number {
    this.#step(0);
    return this.#area / Math.max(1, performance.now() - this.#start);
  }

  #step(by: number): void {
    const now = performance.now();
    this.#area += this.#out * (now - this.#since);
    [this.#out, this.#since] = [Math.max(0, this.#out + by), now];
  }
}
const requestsOut = new RequestsOut();

/**
 * Where a window's CPU went (user and system, ms): this client's main thread, the proxy's thread (the
 * network: in process.cpuUsage() for every client alike) and the rest (V8's collector and compiler
 * threads, libuv's pool). Null on a system without /proc/thread-self.
 */
type Threads = { main: number; proxy: number; helpers: number } | null;
async function threadsFrom(): Promise<() => Promise<Threads>> {
  const [main0, proxy0, all0] = [threadCpuMs(), await proxy.cpuMs(), process.cpuUsage()];
  return async () => {
    const [main1, proxy1, all] = [threadCpuMs(), await proxy.cpuMs(), process.cpuUsage(all0)];
    if (main0 === null || main1 === null || proxy0 === null || proxy1 === null) return null;
    const [main, net] = [main1 - main0, proxy1 - proxy0];
    return { main, proxy: net, helpers: Math.max(0, (all.user + all.system) / 1000 - main - net) };
  };
}

/** `count` whole work sessions taken with the site away, then its replay once the site is back. */
async function takeOfflineThenReplay(
  count: number,
  name: string,
  measure: boolean,
): Promise<{
  queued: number;
  ms: number;
  cpu: NodeJS.CpuUsage;
  held: ReturnType<typeof monitorEventLoopDelay>;
  out: number;
  threads: Threads;
}> {
  await proxy.close();
  // A few turns for this process to see its kept-alive connections to the proxy end.
  for (let turn = 0; turn < 5; turn++) await sleep(10);
  const take = measure ? timed : <T>(call: () => Promise<T>) => call();
  for (let i = 0; i < count; i++) {
    const session = must(await take(() => api.startSession({ guideid, workorderid: `${name}-${i}` })));
    for (let save = 0; save < 2; save++) {
      // A pause and resume between the two saves keeps them apart (unsent saves of a step coalesce).
      must(
        await take(() =>
          api.saveStepData({
            sessionId: session.id,
            stepid: step.stepid,
            values: [{ fieldGuid: field.fieldGuid, value: `reading ${save}` }],
          }),
        ),
      );
      if (save === 0) {
        must(await take(() => api.transitionSession({ sessionId: session.id, transition: 'pause' })));
        must(await take(() => api.transitionSession({ sessionId: session.id, transition: 'resume' })));
      }
    }
    must(await take(() => api.transitionSession({ sessionId: session.id, transition: 'finish' })));
  }
  // Counted, not listed: the outbox screen lists the first LISTED only.
  const counted = must(await api.getOutbox()).summary;
  const queued = counted.pending + counted.inFlight + counted.failed;
  // The outbox's own tries of that work (this loop never let a turn end, so they start now) are refused
  // and end before the site is back: the replay timed below sends everything, and nothing before it.
  for (let turn = 0; turn < 200; turn++) {
    await sleep(10);
    if (turn >= 5 && must(await api.getOutbox()).summary.inFlight === 0) break;
  }
  await proxy.restart();
  // How long the main thread is held at a time while the outbox replays: what an answer to a screen waits behind.
  const held = monitorEventLoopDelay({ resolution: 1 });
  held.enable();
  const threadsNow = await threadsFrom();
  const cpu0 = process.cpuUsage();
  requestsOut.reset();
  const t0 = performance.now();
  let summary = must(await api.flushOutbox());
  while (summary.pending > 0) summary = must(await api.flushOutbox());
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const out = requestsOut.mean();
  const threads = await threadsNow();
  held.disable();
  if (summary.failed > 0 || summary.conflicts > 0) throw new Error(`replay: ${JSON.stringify(summary)}`);
  return { queued, ms, cpu, held, out, threads };
}

// Each of the three is warmed up first, untimed, with one session per chain: the figures compare the
// same work in the same state of the JIT, not the replay's first run against loops run after it.
const WARM_UP = CHAINS;
await takeOfflineThenReplay(WARM_UP, 'WARM', false);
await proxy.clear();
const replayed = await takeOfflineThenReplay(SESSIONS, 'BENCH', true);
const [queued, replayMs, replayCpu, held] = [replayed.queued, replayed.ms, replayed.cpu, replayed.held];
const replayRequests = await proxy.count();

// The same work by a bare client: the same requests in the same order per session, chains at once.
const token = (await (
  await fetch(`${proxy.url}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  })
).json()) as { authToken: string };
const headers = { Authorization: `api ${token.authToken}`, 'Content-Type': 'application/json' };
type Entry = { entryid: number; revisionid: number };
type Call = (method: string, path: string, body: unknown) => Promise<Entry>;
// Node's own fetch (the bare client the figures were measured with), and the app's own HTTP
// client (api/http.ts) without the app: the app's cost above the requests shows apart from what its client saves.
const viaFetch: Call = async (method, path, body) =>
  (await (await fetch(`${proxy.url}/api/2.0${path}`, { method, headers, body: JSON.stringify(body) })).json()) as Entry;
const viaApp: Call = async (method, path, body) => {
  const answer = await siteHttp(new URL(`${proxy.url}/api/2.0${path}`), {
    method,
    headers,
    body: JSON.stringify(body),
  });
  return JSON.parse((await answer.bytes(MAX_JSON_BYTES))!.toString('utf8')) as Entry;
};
async function bare(
  call: Call,
  name: string,
): Promise<{ ms: number; cpu: number; requests: number; out: number; threads: Threads }> {
  await work(call, `${name}-WARM`, WARM_UP);
  await proxy.clear();
  const threadsNow = await threadsFrom();
  const cpu1 = process.cpuUsage();
  requestsOut.reset();
  const t1 = performance.now();
  await work(call, name, SESSIONS);
  const ms = performance.now() - t1;
  const out = requestsOut.mean();
  const cpu = process.cpuUsage(cpu1).user / 1000;
  return { ms, cpu, requests: await proxy.count(), out, threads: await threadsNow() };
}
/** `count` work sessions made with `call`, CHAINS at once, each its requests in order. */
async function work(call: Call, name: string, count: number): Promise<void> {
  await runBounded(
    Array.from({ length: count }, (_, i) => i),
    CHAINS,
    async (i) => {
      const now = Math.floor(Date.now() / 1000);
      let entry = await call('POST', '/work_log', { guideid, workorderid: `${name}-${i}`, timestamp: now });
      const next = async (method: string, path: string, body: unknown) => {
        entry = await call(method, `/work_log/${entry.entryid}${path}?revisionid=${entry.revisionid}`, body);
      };
      for (let save = 0; save < 2; save++) {
        await next('PUT', '/stepData', {
          fields: { [field.fieldRevisionid]: `reading ${save}` },
          stepid: step.stepid,
          timestamp: now,
        });
        if (save === 0) {
          await next('POST', '/pause', { timestamp: now });
          await next('POST', '/resume', { timestamp: now });
        }
      }
      await next('POST', '/finish', { timestamp: now });
    },
  );
}
const floor = await bare(viaFetch, 'FLOOR');
const appFloor = await bare(viaApp, 'APP-FLOOR');

const sorted = [...latencies].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
console.log(
  JSON.stringify({
    actions: queued,
    enqueue: { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) },
    replayMs,
    heldMs: { p50: held.percentile(50) / 1e6, p99: held.percentile(99) / 1e6, max: held.max / 1e6 },
    floorMs: floor.ms,
    appFloorMs: appFloor.ms,
    sessions: SESSIONS,
    cpuMs: { replay: replayCpu.user / 1000, floor: floor.cpu, appFloor: appFloor.cpu },
    requestsOut: { replay: replayed.out, floor: floor.out, appFloor: appFloor.out },
    threadsMs: { replay: replayed.threads, appFloor: appFloor.threads },
    requests: { replay: replayRequests, floor: floor.requests, appFloor: appFloor.requests },
  }),
);
await services.close();
await proxy.close();
tmp.remove();
