// `npm run bench`: sync, search and open-guide figures for generated sites, with the ratios the targets
// of DESIGN.md §10 name, measured side by side in one run. Sizes: BENCH_SIZES (default 500,1000,2000);
// the local search/open site: BENCH_LOCAL_GUIDES (default 5300, 0 skips it); BENCH_OUTBOX=0 skips the outbox;
// BENCH_ROUNDS (default 2); BENCH_CPU_PROF=<dir> writes a CPU profile of each client. The big site (the
// summaries of BENCH_BIG guides, default 100,000, against a fiftieth of them, and library pages and search
// over them) runs last; BENCH_BIG=0 skips it, BENCH_ONLY=big runs it alone. BENCH_LINKS=0,50/20,150/5
// runs the initial sync over emulated links (links.ts), then the outbox replay over them (BENCH_REPLAY_ROUNDS
// rounds, default 3, medians printed), and the time to a guide opened during a first sync (time-to-guide.ts,
// BENCH_GUIDE_ROUNDS, default 3; BENCH_ONLY=guide-first runs it alone; asked as the first guide is stored,
// and again BENCH_GUIDE_AFTER_MS later, default 3000, with the sync in full flow), and only that.
// BENCH_ONLY=search types queries into the search box in
// Chromium while the site's search hangs and prints how long the local results take (BENCH_SEARCH_ROUNDS,
// default 20; the renderer must be built: npm run build). BENCH_ONLY=offline stops and ends the site and
// prints how soon the status chip says offline and online again, and search meanwhile (BENCH_OFFLINE_ROUNDS,
// default 3; also at the end of a whole run when the renderer is built). BENCH_ONLY=waits opens a guide, starts
// a session and moves a step in Chromium, with the site answering and hanging, and prints how long each took
// from the click to the screen (BENCH_WAIT_ROUNDS, default 5; also at the end of a whole run, renderer built).
// BENCH_ONLY=slow-disk does the same (and types a value in step 1 before Next) with each flush of the data folder
// made slower by BENCH_SLOW_DISK_MS (default 0,30,100 ms; a preloaded shim, test/helpers/slow-disk.c, built
// with cc), BENCH_SLOW_DISK_ROUNDS rounds each (default 3; also at the end of a whole run, renderer built).
// BENCH_ONLY=big-file attaches a video of BENCH_FILE_MB (default 200), checks it as the Finish review does and
// uploads one the site takes, BENCH_FILE_ROUNDS rounds (default 3; also at the end of a whole run).
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../helpers/tmp.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { benchLinks, benchReplayOverLinks, parseLinks } from './links.ts';
import { buildPlan } from './plan.ts';
import { CHAINS_AT_ONCE } from '../../electron/core/outbox/runner.ts';
import { runJsonChild, startSiteProcess } from './site-process.ts';
import { benchSearchTyping } from './search-typing.ts';
import { benchOfflineSaid } from './offline-said.ts';
import { benchTimeToGuide } from './time-to-guide.ts';
import { benchTechnicianWaits } from './technician-waits.ts';
import { benchSlowDisk } from './slow-disk.ts';
import { benchBigFile } from './big-file.ts';

interface SyncRun {
  initialMs: number;
  cpuMs: { user: number; system: number };
  initialRequests: { url: string; phase: string }[];
  initialPhaseMs: Record<string, number>;
  unchangedMs: number;
  unchangedRequests: number;
  baseRss: number;
  peakRss: number;
  peakHeap: number;
  baseLive: number;
  peakLive: number;
  heapTotalGrowth: number;
  externalGrowth: number;
  rssCurve: Record<string, number>;
  guides: { total: number; offline: number } | null;
  mediaBytes: number | null;
  concurrency: { guides: number; media: number };
  /** Fieldguide opened again on the local library's folder (sync-client.ts benchReopen). */
  reopen: Percentiles | null;
  local: {
    guides: number;
    search: { p50: number; p95: number; max: number };
    open: { p50: number; p95: number; max: number };
    searchHits: number;
  } | null;
  library: { guides: number; page: Percentiles; filtered: Percentiles; search: Percentiles; searchHits: number } | null;
  scopeChoice: { guides: number; limit: number } | null;
  wholeGuideRequests: number;
}

interface Percentiles {
  p50: number;
  p95: number;
  max: number;
}

const bigOnly = process.env.BENCH_ONLY === 'big';
const bigGuides = Number(process.env.BENCH_BIG ?? 100_000);
const sizes = bigOnly ? [] : (process.env.BENCH_SIZES ?? '500,1000,2000').split(',').map(Number);
// About 5 % of generated guides are private: 5,300 gives a library of more than 5,000.
const localGuides = Number(process.env.BENCH_LOCAL_GUIDES ?? 5300);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const tmp = makeTempDir('bench');
const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
const ms = (value: number): string => value.toFixed(value < 10 ? 2 : 0);

async function token(url: string): Promise<string> {
  const response = await fetch(`${url}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  });
  return ((await response.json()) as { authToken: string }).authToken;
}

const rows: { n: number; sync: SyncRun; syncMs: number; floorMs: number; appFloorMs: number; requests: number }[] = [];
/** BENCH_ONLY=<name>: that bench alone, then the run ends. */
async function only(name: string, bench: () => Promise<void>): Promise<void> {
  if (process.env.BENCH_ONLY !== name) return;
  try {
    await bench();
  } finally {
    tmp.remove();
  }
  process.exit(0);
}
await only('search', () => benchSearchTyping(Math.max(1, Number(process.env.BENCH_SEARCH_ROUNDS ?? 20))));
const offlineRounds = Math.max(1, Number(process.env.BENCH_OFFLINE_ROUNDS ?? 3));
await only('offline', () => benchOfflineSaid(offlineRounds));
const waitRounds = Math.max(1, Number(process.env.BENCH_WAIT_ROUNDS ?? 5));
await only('waits', () => benchTechnicianWaits(waitRounds));
const slowDiskRounds = Math.max(1, Number(process.env.BENCH_SLOW_DISK_ROUNDS ?? 3));
const slowDisk = (process.env.BENCH_SLOW_DISK_MS ?? '0,30,100').split(',').map(Number);
await only('slow-disk', () => benchSlowDisk(slowDiskRounds, slowDisk));
const fileMb = Number(process.env.BENCH_FILE_MB ?? 200);
const fileRounds = Math.max(1, Number(process.env.BENCH_FILE_ROUNDS ?? 3));
await only('big-file', () => benchBigFile(fileMb, fileRounds));
if (process.env.BENCH_LINKS) {
  const linkGuides = Number(process.env.BENCH_LINK_GUIDES ?? 300);
  const guideRounds = Math.max(1, Number(process.env.BENCH_GUIDE_ROUNDS ?? 3));
  try {
    const links = parseLinks(process.env.BENCH_LINKS);
    const linkRounds = Math.max(1, Number(process.env.BENCH_LINK_ROUNDS ?? 3));
    if (process.env.BENCH_ONLY !== 'guide-first') await benchLinks(links, tmp.dir, linkGuides, linkRounds);
    await benchTimeToGuide(links, tmp.dir, linkGuides, guideRounds, Number(process.env.BENCH_GUIDE_AFTER_MS ?? 3000));
    if (process.env.BENCH_OUTBOX !== '0' && process.env.BENCH_ONLY !== 'guide-first') {
      const replayRounds = Math.max(1, Number(process.env.BENCH_REPLAY_ROUNDS ?? 3));
      await benchReplayOverLinks(links, tmp.dir, process.env.BENCH_SESSIONS ?? '40', replayRounds);
    }
  } finally {
    tmp.remove();
  }
  process.exit(0);
}
try {
  for (const n of sizes) {
    const db = path.join(tmp.dir, `site-${n}.sqlite`);
    console.error(`generating a site of ${n} guides…`);
    const site = await startSiteProcess([
      '--generate',
      '--guides',
      String(n),
      '--steps',
      '6',
      '--images',
      '1',
      '--seed',
      '1',
      '--db',
      db,
      '--picture-cache-mb',
      '1024',
    ]);
    try {
      const auth = await token(site.url);
      let best: SyncRun | null = null;
      let floorMs = Number.POSITIVE_INFINITY;
      let appFloorMs = Number.POSITIVE_INFINITY;
      const planFile = path.join(tmp.dir, `plan-${n}.json`);
      const phases = (p: Record<string, number>) =>
        Object.entries(p)
          .map(([k, v]) => `${k} ${ms(v)}`)
          .join(', ');
      const cpu = (c: { user: number; system: number }) => `cpu user ${ms(c.user)} sys ${ms(c.system)}`;
      // A first sync, not counted, draws every picture into the server's cache and gives the floor its
      // plan: each counted round then measures serving for both, the floor first, the sync second.
      const warm = await runJsonChild<SyncRun>('sync-client.ts', [site.url]);
      fs.writeFileSync(planFile, JSON.stringify(buildPlan(warm.initialRequests, warm.concurrency)));
      console.error(`  N=${n} warm-up sync (pictures drawn by the server, not counted): ${ms(warm.initialMs)} ms`);
      for (let round = 0; round < rounds; round++) {
        type Floor = {
          ms: number;
          requests: number;
          phaseMs: Record<string, number>;
          cpuMs: { user: number; system: number };
        };
        const floor = await runJsonChild<Floor>('floor-client.ts', [planFile, auth]);
        // The same requests on the app's own HTTP client (floor-client.ts says why both).
        const appFloor = await runJsonChild<Floor>('floor-client.ts', [planFile, auth, 'app']);
        const sync = await runJsonChild<SyncRun>('sync-client.ts', [site.url]);
        // The floor replays the previous sync's requests; a retried request makes the two differ by one.
        if (Math.abs(sync.initialRequests.length - floor.requests) > floor.requests / 1000) {
          throw new Error(`the sync made ${sync.initialRequests.length} requests, the floor ${floor.requests}`);
        }
        fs.writeFileSync(planFile, JSON.stringify(buildPlan(sync.initialRequests, sync.concurrency)));
        if (!best || sync.initialMs < best.initialMs) best = sync;
        floorMs = Math.min(floorMs, floor.ms);
        appFloorMs = Math.min(appFloorMs, appFloor.ms);
        console.error(
          `  N=${n} round ${round + 1}: floor ${ms(floor.ms)} ms (${phases(floor.phaseMs)}; ` +
            `${cpu(floor.cpuMs)}; ${floor.requests} requests), ` +
            `app-client floor ${ms(appFloor.ms)} ms (${cpu(appFloor.cpuMs)}), ` +
            `sync ${ms(sync.initialMs)} ms (${phases(sync.initialPhaseMs)}; ${cpu(sync.cpuMs)})`,
        );
      }
      rows.push({
        n,
        sync: best!,
        syncMs: best!.initialMs,
        floorMs,
        appFloorMs,
        requests: best!.initialRequests.length,
      });
    } finally {
      await site.stop();
    }
  }

  if (rows.length > 0)
    console.log(
      '\nInitial sync of a generated site (6 steps, 1 image per step; client and server in separate processes)',
    );
  if (rows.length > 0)
    console.log(
      'guides | requests | media MB | sync ms | floor ms (fetch) | sync/floor | ' +
        "floor ms (the app's HTTP client) | sync/that floor | ms/guide | unchanged: requests, ms | " +
        'peak RSS growth MB | V8 heap committed growth MB | outside the heap growth MB | live heap growth MB',
    );
  for (const row of rows) {
    console.log(
      [
        row.n,
        row.requests,
        mb(row.sync.mediaBytes ?? 0),
        ms(row.syncMs),
        ms(row.floorMs),
        (row.syncMs / row.floorMs).toFixed(2),
        ms(row.appFloorMs),
        (row.syncMs / row.appFloorMs).toFixed(2),
        (row.syncMs / row.n).toFixed(2),
        `${row.sync.unchangedRequests}, ${ms(row.sync.unchangedMs)}`,
        mb(row.sync.peakRss - row.sync.baseRss),
        mb(row.sync.heapTotalGrowth),
        mb(row.sync.externalGrowth),
        mb(row.sync.peakLive - row.sync.baseLive),
      ].join(' | '),
    );
  }
  if (rows.length > 1) {
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    console.log(
      `linearity: ms/guide at ${last.n} ÷ ms/guide at ${first.n} = ` +
        `${(last.syncMs / last.n / (first.syncMs / first.n)).toFixed(2)} (1.00 = linear)`,
    );
    const rssGrowth = (last.sync.peakRss - last.sync.baseRss) / Math.max(1, first.sync.peakRss - first.sync.baseRss);
    console.log(
      `memory: peak RSS growth at ${last.n} ÷ at ${first.n} = ${rssGrowth.toFixed(2)}, ` +
        `live heap (after full collections) ${mb(last.sync.peakLive)} ÷ ${mb(first.sync.peakLive)} MB = ` +
        `${(last.sync.peakLive / first.sync.peakLive).toFixed(2)} (1.00 = flat; ` +
        `guides ×${(last.n / first.n).toFixed(1)})`,
    );
  }

  if (localGuides > 0 && !bigOnly) await benchLocalSite();
  if (bigGuides > 0) await benchBigSite();
} finally {
  tmp.remove();
}

async function benchLocalSite(): Promise<void> {
  console.error(`\ngenerating a site of ${localGuides} guides for local search and open…`);
  const site = await startSiteProcess([
    '--generate',
    '--guides',
    String(localGuides),
    '--steps',
    '6',
    '--images',
    '0',
    '--seed',
    '2',
    '--db',
    path.join(tmp.dir, 'local.sqlite'),
  ]);
  try {
    const run = await runJsonChild<SyncRun>('sync-client.ts', [site.url, '32', '64', 'local']);
    const local = run.local!;
    console.log(`\nLocal library of ${local.guides} guides (synced whole, through the App API)`);
    console.log(
      `search: p50 ${ms(local.search.p50)} ms, p95 ${ms(local.search.p95)} ms, ` +
        `max ${ms(local.search.max)} ms over 400 queries (${local.searchHits} hits)`,
    );
    console.log(
      `open a guide: p50 ${ms(local.open.p50)} ms, ` +
        `p95 ${ms(local.open.p95)} ms, max ${ms(local.open.max)} ms over 1000 opens`,
    );
    if (run.reopen)
      console.log(
        `Fieldguide opened again on it (the folder checked, the journal read, status and first page answered): ` +
          `p50 ${ms(run.reopen.p50)} ms, max ${ms(run.reopen.max)} ms over 5 opens`,
      );
    console.log(
      `initial sync of ${local.guides} guides: ${ms(run.initialMs)} ms; ` +
        `nothing changed: ${run.unchangedRequests} requests, ${ms(run.unchangedMs)} ms`,
    );
    console.log(
      `peak RSS growth during that sync: ${mb(run.peakRss - run.baseRss)} MB, ` +
        `peak heap ${mb(run.peakHeap)} MB, live heap after full collections ${mb(run.peakLive)} MB`,
    );
  } finally {
    await site.stop();
  }
}

/**
 * A big site: the summary sync of `bigGuides` guides (a first sync as a technician meets it: summaries
 * listed and stored as they come, no whole guide until they choose) against the same sync of 2,000, then
 * library pages, filters and search over the big library of summaries.
 */
async function benchBigSite(): Promise<void> {
  const runs: { n: number; run: SyncRun; generateMs: number }[] = [];
  // 2,000 against 100,000: the same sync at a fiftieth of the size.
  for (const [n, mode] of [
    [Math.max(10, Math.round(bigGuides / 50)), 'summaries'],
    [bigGuides, 'big'],
  ] as const) {
    console.error(`\ngenerating a site of ${n} guides (1 step, no pictures)…`);
    const t = performance.now();
    const site = await startSiteProcess([
      '--generate',
      '--guides',
      String(n),
      '--steps',
      '1',
      '--images',
      '0',
      '--seed',
      '4',
      '--db',
      path.join(tmp.dir, `big-${n}.sqlite`),
    ]);
    const generateMs = performance.now() - t;
    try {
      runs.push({ n, run: await runJsonChild<SyncRun>('sync-client.ts', [site.url, '6', '4', mode]), generateMs });
    } finally {
      await site.stop();
    }
  }
  const [small, big] = [runs[0]!, runs[1]!];
  const listingRequests = (run: SyncRun) => run.initialRequests.filter((r) => r.phase === 'listing').length;
  console.log(
    `\nA big site: the summary sync of ${big.n.toLocaleString('en')} guides ` +
      `against ${small.n.toLocaleString('en')} (first sync, nothing kept whole)`,
  );
  // The peak RSS growth in parts: V8's committed heap (live objects and the garbage between collections),
  // Buffers outside it, and the rest: native memory (SQLite, and the C allocator's per-thread arenas).
  console.log(
    'guides | site generated in s | listing ms | listing requests | all requests | whole guides fetched | ' +
      'peak RSS of the process MB | peak RSS growth MB | V8 heap committed growth MB | ' +
      'outside the heap growth MB | native growth MB | live heap MB (after full GCs)',
  );
  for (const { n, run, generateMs } of runs) {
    const growth = run.peakRss - run.baseRss;
    const native = growth - run.heapTotalGrowth - run.externalGrowth;
    console.log(
      [
        n,
        (generateMs / 1000).toFixed(1),
        ms(run.initialPhaseMs.listing ?? 0),
        listingRequests(run),
        run.initialRequests.length,
        run.wholeGuideRequests,
        mb(run.peakRss),
        mb(growth),
        mb(run.heapTotalGrowth),
        mb(run.externalGrowth),
        mb(native),
        mb(run.peakLive),
      ].join(' | '),
    );
  }
  const curve = Object.entries(big.run.rssCurve);
  if (curve.length > 0) {
    console.log(
      `peak RSS growth while the ${big.n.toLocaleString('en')} summaries are listed: ` +
        `${curve.map(([at, bytes]) => `${Number(at).toLocaleString('en')}: ${mb(bytes)} MB`).join(', ')}`,
    );
    const from = big.run.rssCurve['30000'];
    if (from && big.n > 30_000) {
      const growth = (big.run.peakRss - big.run.baseRss) / from;
      console.log(
        `  from 30,000 to ${big.n.toLocaleString('en')} guides (×${(big.n / 30_000).toFixed(1)}): ` +
          `peak RSS growth ×${growth.toFixed(2)} (whether it levels off once V8 has sized its heap)`,
      );
    }
  }
  const rss = (big.run.peakRss - big.run.baseRss) / Math.max(1, small.run.peakRss - small.run.baseRss);
  const live = big.run.peakLive / small.run.peakLive;
  const whole = big.run.peakRss / small.run.peakRss;
  console.log(
    `memory for ×${(big.n / small.n).toFixed(0)} the guides (target under 1.5): ` +
      `peak RSS of the process ×${whole.toFixed(2)}; ` +
      `its growth during the sync ×${rss.toFixed(2)}; live heap ×${live.toFixed(2)}`,
  );
  const choice = big.run.scopeChoice;
  console.log(
    `the first sync asked to choose: ${choice ? `yes (${choice.guides} guides, limit ${choice.limit})` : 'no'}`,
  );
  const lib = big.run.library!;
  if (lib.guides === 0) return;
  const p = (x: Percentiles) => `p50 ${ms(x.p50)} ms, p95 ${ms(x.p95)} ms, max ${ms(x.max)} ms`;
  console.log(`library of ${lib.guides.toLocaleString('en')} summaries (target p95 under 20 ms):`);
  console.log(`  a page of 50 in title order at a random depth: ${p(lib.page)} over 300`);
  console.log(`  a page by category, type or offline only: ${p(lib.filtered)} over 300`);
  console.log(`  search: ${p(lib.search)} over 400 (${lib.searchHits} hits)`);
}

// The outbox: durable enqueue latency, and replay throughput against the site's own capacity.
if (process.env.BENCH_OUTBOX !== '0' && !bigOnly) {
  console.error('\nstarting the demo workshop for the outbox bench…');
  const siteDir = makeTempDir('bench-outbox-site');
  const site = await startSiteProcess(['--demo', '--db', path.join(siteDir.dir, 'demo.sqlite')]);
  try {
    // BENCH_REPLAY_ROUNDS rounds (default 3), each a new process with its own work: each printed, then medians.
    const rounds = Math.max(1, Number(process.env.BENCH_REPLAY_ROUNDS ?? 3));
    type OutboxRun = {
      actions: number;
      enqueue: { p50: number; p95: number; max: number };
      replayMs: number;
      /** How long the main thread was held at a time during the replay (what a screen's answer waits behind). */
      heldMs: { p50: number; p99: number; max: number };
      floorMs: number;
      appFloorMs: number;
      sessions: number;
      cpuMs: { replay: number; floor: number; appFloor: number };
      /** Requests out at once on average, of CHAINS_AT_ONCE (outbox-client.ts RequestsOut). */
      requestsOut: { replay: number; floor: number; appFloor: number };
      /** Where the CPU went, by thread (outbox-client.ts Threads); null without /proc/thread-self. */
      threadsMs: { replay: ThreadSplit | null; appFloor: ThreadSplit | null };
    };
    type ThreadSplit = { main: number; proxy: number; helpers: number };
    const runs: OutboxRun[] = [];
    for (let round = 0; round < rounds; round++) {
      const run = await runJsonChild<OutboxRun>('outbox-client.ts', [site.url, process.env.BENCH_SESSIONS ?? '40']);
      runs.push(run);
      if (round === 0) {
        console.log(
          `\nOutbox: ${run.actions} actions of ${run.sessions} sessions (start, ` +
            `save, pause, resume, save, finish), ${CHAINS_AT_ONCE} chains at once, ${rounds} rounds`,
        );
      }
      console.log(
        `  round ${round + 1}: durable enqueue (on the disk before the answer) ` +
          `p50 ${ms(run.enqueue.p50)} ms, p95 ${ms(run.enqueue.p95)} ms, max ${ms(run.enqueue.max)} ms; ` +
          `replay ${ms(run.replayMs)} ms (${((run.actions / run.replayMs) * 1000).toFixed(0)} actions/s, ` +
          `CPU ${ms(run.cpuMs.replay)} ms; main thread held p99 ${ms(run.heldMs.p99)} ms, ` +
          `max ${ms(run.heldMs.max)} ms); bare fetch loop ${ms(run.floorMs)} ms (CPU ${ms(run.cpuMs.floor)} ms); ` +
          `bare loop on the app's HTTP client ${ms(run.appFloorMs)} ms (CPU ${ms(run.cpuMs.appFloor)} ms); ` +
          `requests out on average: replay ${run.requestsOut.replay.toFixed(1)}, bare fetch ` +
          `${run.requestsOut.floor.toFixed(1)}, the app's client ${run.requestsOut.appFloor.toFixed(1)}`,
      );
    }
    const median = (pick: (run: OutboxRun) => number): number => {
      const values = runs.map(pick).sort((x, y) => x - y);
      return values[Math.floor(values.length / 2)]!;
    };
    console.log(
      `replay/bare fetch = ${median((r) => r.replayMs / r.floorMs).toFixed(2)}; ` +
        `replay/bare on the app's HTTP client (undici request) = ` +
        `${median((r) => r.replayMs / r.appFloorMs).toFixed(2)} ` +
        `(target 1.25); CPU replay/that client = ${median((r) => r.cpuMs.replay / r.cpuMs.appFloor).toFixed(2)} ` +
        `(medians of ${rounds} rounds)`,
    );
    if (runs.every((r) => r.threadsMs.replay && r.threadsMs.appFloor)) {
      const split = (part: keyof ThreadSplit): string => {
        const [replay, app] = [median((r) => r.threadsMs.replay![part]), median((r) => r.threadsMs.appFloor![part])];
        return `${ms(replay)} against ${ms(app)} ms`;
      };
      console.log(
        `  CPU by thread, user and system (medians; 10 ms ticks): the main thread ${split('main')}, ` +
          `V8's and libuv's helper threads ${split('helpers')}, the proxy's thread (the network, in both ` +
          `CPU figures above) ${split('proxy')}`,
      );
    }
    type Cost = { p50: number; p95: number };
    const next = await runJsonChild<{ long: Cost; short: Cost; calls: number }>('outbox-next.ts', []);
    console.log(
      `the next action after an answer, 30,000 actions of 5,000 sessions waiting: p50 ${ms(next.long.p50)} ms, ` +
        `p95 ${ms(next.long.p95)} ms; 30 of 5: p50 ${ms(next.short.p50)} ms, p95 ${ms(next.short.p95)} ms ` +
        `(over ${next.calls} calls; long/short p95 = ${(next.long.p95 / next.short.p95).toFixed(2)})`,
    );
  } finally {
    await site.stop();
    siteDir.remove();
  }
}

// What the technician waits for when the site goes away and comes back (issue 29).
if (!bigOnly) await benchOfflineSaid(offlineRounds);
if (!bigOnly) await benchTechnicianWaits(waitRounds);
if (!bigOnly) await benchSlowDisk(slowDiskRounds, slowDisk);
if (!bigOnly) await benchBigFile(fileMb, fileRounds);
