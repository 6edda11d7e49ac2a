// One client in a process of its own: signs in, runs an initial sync and a sync with nothing changed,
// and prints what they cost as JSON (time, requests by phase, peak memory). The last argument: `local`
// (everything kept whole, then local search and open), `summaries` (nothing kept whole: the summary sync
// alone), `big` (a first sync as a technician meets it, then library pages and search over the summaries).
import '../../electron/core/threadpool.ts';
import { benchServices } from './bench-services.ts';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { siteHttp } from '../../electron/core/api/http.ts';

const [siteUrl, guidesConcurrency, mediaConcurrency, localBench] = process.argv.slice(2);
if (!siteUrl) throw new Error('usage: sync-client.ts <siteUrl> [guideConcurrency] [mediaConcurrency]');
const concurrency = { guides: Number(guidesConcurrency ?? 32), media: Number(mediaConcurrency ?? 64) };
const tmp = makeTempDir('bench-sync');
let phase = 'idle';
const requests: { url: string; phase: string }[] = [];
const services = benchServices(tmp.dir, {
  concurrency,
  http: (url, init) => {
    // Not the front lane's (its warm questions, sync/front-lane.ts): they keep the technician's connections open,
    // and the floors replay only what the sync fetched. Their cost stays in the sync's figures.
    if (init.lane === undefined) requests.push({ url: url.href, phase });
    return siteHttp(url, init);
  },
});
const phaseMs: Record<string, number> = {};
// Peak RSS growth so far at each of these numbers of summaries listed, within this one sync: whether
// memory keeps growing with the site's size or levels off once the runtime has sized its heap.
const CURVE_MARKS = [2_000, 10_000, 30_000, 60_000, 100_000, 200_000];
const rssCurve: Record<number, number> = {};
let phaseStart = performance.now();
services.events.subscribe((event) => {
  if (event.name === 'syncProgress' && event.payload.phase === 'listing' && curveBase > 0) {
    for (const mark of CURVE_MARKS)
      if (event.payload.done >= mark && !(mark in rssCurve)) rssCurve[mark] = peakRss - curveBase;
  }
  if (event.name !== 'syncProgress' || event.payload.phase === phase) return;
  const t = performance.now();
  phaseMs[phase] = (phaseMs[phase] ?? 0) + (t - phaseStart);
  phase = event.payload.phase;
  phaseStart = t;
});

let peakRss = 0;
let peakHeap = 0;
// The heap right after each full collection: what the sync keeps alive, not the garbage V8 lets pile up
// between collections (RSS and the sampled heap include that). It includes this client's own record of
// every request URL (for the floor's plan): about 5 MB at 34,000 requests.
let peakLive = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
    }
  }
}).observe({ entryTypes: ['gc'] });
// process.memoryUsage() walks the heap's spaces (~0.2 ms a call): the RSS alone every 20 ms, the heap
// every 20 ms for the first 2 s (a small site's sync lasts a fraction of a second) and every 200 ms after,
// so the sampling costs the measured sync next to nothing.
let ticks = 0;
// What V8 has committed for its heap (live objects and the garbage between collections) and what sits
// outside it (Buffers): the parts of the RSS the runtime sizes by how long and how fast the sync allocates.
let peakHeapTotal = 0;
let peakExternal = 0;
let sampling = true;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  if ((ticks < 100 || ticks % 10 === 0) && sampling) {
    const memory = process.memoryUsage();
    peakHeap = Math.max(peakHeap, memory.heapUsed);
    peakHeapTotal = Math.max(peakHeapTotal, memory.heapTotal);
    peakExternal = Math.max(peakExternal, memory.external);
  }
  ticks++;
}, 20);
let curveBase = 0;

const signedIn = await services.api.signIn({
  siteUrl,
  email: DEMO_ACCOUNTS.tech1.email,
  password: DEMO_ACCOUNTS.tech1.password,
});
if (!signedIn.ok) throw new Error(signedIn.error.message);
// A technician who chose everything (a site bigger than a first sync takes would otherwise ask first).
if (localBench !== 'big') {
  const scope =
    localBench === 'summaries'
      ? { mode: 'selected' as const, categories: [], guideids: [] }
      : { mode: 'all' as const, categories: [], guideids: [] };
  const set = await services.api.setOfflineScope(scope);
  if (!set.ok) throw new Error(set.error.message);
}
requests.length = 0;
globalThis.gc?.();
const { rss: baseRss, heapTotal: baseHeapTotal, external: baseExternal } = process.memoryUsage();
peakRss = baseRss;
curveBase = baseRss;
peakHeap = process.memoryUsage().heapUsed;
const baseLive = peakHeap;
peakLive = baseLive;

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const first = await services.api.syncNow();
const initialMs = performance.now() - t0;
const initialCpu = process.cpuUsage(cpu0);
if (!first.ok || first.value.status !== 'complete') throw new Error(`initial sync: ${JSON.stringify(first)}`);
sampling = false;
const initialRequests = [...requests];
const initialPhaseMs = { ...phaseMs };
const initialPeakRss = peakRss;
const initialPeakHeap = peakHeap;
const initialPeakLive = peakLive;

requests.length = 0;
const t1 = performance.now();
const second = await services.api.syncNow();
const unchangedMs = performance.now() - t1;
if (!second.ok || second.value.status !== 'complete') throw new Error(`second sync: ${JSON.stringify(second)}`);
clearInterval(sampler);
const state = await services.api.getSyncState();
const local = localBench === 'local' ? await benchLocal() : null;
const library = localBench === 'big' ? await benchLibrary() : null;
// The morning after: Fieldguide opened again on this data folder (its checks, its work journal read back).
await services.close();
const reopen = localBench === 'local' ? await benchReopen() : null;

console.log(
  JSON.stringify({
    initialMs,
    cpuMs: { user: initialCpu.user / 1000, system: initialCpu.system / 1000 },
    initialRequests,
    initialPhaseMs,
    unchangedMs,
    unchangedRequests: requests.length,
    baseRss,
    peakRss: initialPeakRss,
    peakHeap: initialPeakHeap,
    baseLive,
    peakLive: initialPeakLive,
    heapTotalGrowth: peakHeapTotal - baseHeapTotal,
    externalGrowth: peakExternal - baseExternal,
    rssCurve,
    guides: state.ok ? state.value.guides : null,
    mediaBytes: state.ok ? state.value.storage.mediaBytes : null,
    concurrency,
    local,
    reopen,
    library,
    scopeChoice: state.ok ? state.value.scopeChoice : null,
    wholeGuideRequests: initialRequests.filter((r) => /\/api\/2\.0\/guides\/\d+(\?|$)/.test(r.url)).length,
  }),
);
tmp.remove();

/**
 * Fieldguide opened on the synced folder, 5 times: from the start of the process's services (the data folder
 * checked, the journal read back, the work projected) to the status and the library's first page answered, as
 * the first screen asks them. Its background start (the site asked who we are) runs meanwhile, and is waited for.
 */
async function benchReopen(): Promise<Percentiles> {
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t = performance.now();
    const again = benchServices(tmp.dir, { concurrency });
    const started = again.start();
    const [status, page] = await Promise.all([again.api.getStatus(), again.api.listGuides({ limit: 50 })]);
    times.push(performance.now() - t);
    if (!status.ok || !page.ok || page.value.items.length === 0) throw new Error('reopen: no library');
    await started;
    await again.close();
  }
  return percentiles(times);
}

/** Local search and opening a guide, through the App API as the renderer calls it. */
async function benchLocal(): Promise<{ guides: number; search: Percentiles; open: Percentiles; searchHits: number }> {
  const page = await services.api.listGuides({ limit: 500 });
  if (!page.ok) throw new Error(page.error.message);
  const words = [...new Set(page.value.items.flatMap((g) => g.title.split(/\W+/).filter((w) => w.length > 3)))];
  const ids: number[] = [];
  for (let offset = 0; ; offset += 500) {
    const more = await services.api.listGuides({ offset, limit: 500 });
    if (!more.ok) throw new Error(more.error.message);
    ids.push(...more.value.items.map((g) => g.guideid));
    if (ids.length >= more.value.total) break;
  }
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const searchTimes: number[] = [];
  let searchHits = 0;
  for (let i = 0; i < 400; i++) {
    const text =
      i % 2 === 0
        ? words[random(words.length)]!
        : `${words[random(words.length)]!} ${words[random(words.length)]!.slice(0, 3)}`;
    const t = performance.now();
    const result = await services.api.search({ text, where: 'local', limit: 20 });
    searchTimes.push(performance.now() - t);
    if (result.ok) searchHits += result.value.items.length;
  }
  const openTimes: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    const guide = await services.api.getGuide(ids[random(ids.length)]!);
    openTimes.push(performance.now() - t);
    if (!guide.ok) throw new Error(guide.error.message);
  }
  return { guides: ids.length, search: percentiles(searchTimes), open: percentiles(openTimes), searchHits };
}

/**
 * Library pages (title order, a category, a type, offline only) at random depths, and searches, over a
 * library of summaries, through the App API as the renderer calls it.
 */
async function benchLibrary(): Promise<{
  guides: number;
  page: Percentiles;
  filtered: Percentiles;
  search: Percentiles;
  searchHits: number;
}> {
  const first = await services.api.listGuides({ limit: 50 });
  if (!first.ok) throw new Error(first.error.message);
  const total = first.value.total;
  const tree = await services.api.getCategories();
  if (!tree.ok) throw new Error(tree.error.message);
  const leaves = tree.value.flatMap(function all(c): { name: string; children: unknown[] }[] {
    return [c, ...c.children.flatMap(all)];
  });
  const words = [...new Set(first.value.items.flatMap((g) => g.title.split(/\W+/).filter((w) => w.length > 3)))];
  let seed = 11;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const time = async (call: () => Promise<{ ok: boolean }>): Promise<number> => {
    const t = performance.now();
    const result = await call();
    if (!result.ok) throw new Error(JSON.stringify(result));
    return performance.now() - t;
  };
  const page: number[] = [];
  for (let i = 0; i < 300; i++)
    page.push(await time(() => services.api.listGuides({ offset: random(Math.max(1, total - 50)), limit: 50 })));
  const filtered: number[] = [];
  for (let i = 0; i < 300; i++) {
    const kind = i % 3;
    filtered.push(
      await time(() =>
        services.api.listGuides(
          kind === 0
            ? { category: leaves[random(leaves.length)]!.name, limit: 50 }
            : kind === 1
              ? { type: 'repair', offset: random(1000), limit: 50 }
              : { offlineOnly: true, limit: 50 },
        ),
      ),
    );
  }
  const search: number[] = [];
  let searchHits = 0;
  for (let i = 0; i < 400; i++) {
    const text =
      i % 2 === 0
        ? words[random(words.length)]!
        : `${words[random(words.length)]!} ${words[random(words.length)]!.slice(0, 3)}`;
    const t = performance.now();
    const result = await services.api.search({ text, where: 'local', limit: 20 });
    search.push(performance.now() - t);
    if (result.ok) searchHits += result.value.items.length;
  }
  return {
    guides: total,
    page: percentiles(page),
    filtered: percentiles(filtered),
    search: percentiles(search),
    searchHits,
  };
}

interface Percentiles {
  p50: number;
  p95: number;
  max: number;
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1]! };
}
