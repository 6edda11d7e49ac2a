// The initial sync over emulated workshop links (issue 17): BENCH_LINKS=0,50/20,150/5 (RTT ms / Mbit/s;
// 0 is plain loopback), on a generated site of BENCH_LINK_GUIDES guides (default 300). For each link, the
// sync and a bare client making the same requests with the same concurrency (the same-requests floor)
// run through the link emulator (test/fault/link.ts); the bandwidth floor is the bytes that crossed the
// link for those requests divided by its rate. BENCH_LINK_ROUNDS rounds per link (default 3), each printed,
// then their medians.
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startLink, type Link } from '../fault/link.ts';
import { buildPlan } from './plan.ts';
import { runJsonChild, startSiteProcess } from './site-process.ts';

interface LinkSpec {
  rttMs: number;
  mbit: number;
}

interface SyncFigures {
  initialMs: number;
  cpuMs: { user: number; system: number };
  initialRequests: { url: string; phase: string }[];
  concurrency: { guides: number; media: number };
}

interface FloorFigures {
  ms: number;
  requests: number;
  cpuMs: { user: number; system: number };
}

export function parseLinks(text: string): LinkSpec[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      if (part === '0') return { rttMs: 0, mbit: 0 };
      const [rtt, rate] = part.split('/').map(Number);
      if (!Number.isFinite(rtt) || !Number.isFinite(rate) || rate! <= 0)
        throw new Error(`BENCH_LINKS: "${part}" is not <rtt ms>/<Mbit/s>`);
      return { rttMs: rtt!, mbit: rate! };
    });
}

async function token(url: string): Promise<string> {
  const response = await fetch(`${url}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  });
  return ((await response.json()) as { authToken: string }).authToken;
}

const s = (ms: number): string => (ms / 1000).toFixed(2);

export async function benchLinks(links: LinkSpec[], tmpDir: string, guides: number, rounds: number): Promise<void> {
  const lanes = process.env.BENCH_LINK_LANES?.split('/') ?? [];
  const db = path.join(tmpDir, `links-${guides}.sqlite`);
  console.error(`\ngenerating a site of ${guides} guides for the links…`);
  const site = await startSiteProcess([
    '--generate',
    '--guides',
    String(guides),
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
  const port = Number(new URL(site.url).port);
  const lines: string[] = [];
  try {
    // Not counted: draws every picture into the server's cache.
    await runJsonChild<SyncFigures>('sync-client.ts', [site.url, ...lanes]);
    for (const spec of links) {
      const name = spec.mbit === 0 ? 'loopback' : `${spec.rttMs}ms/${spec.mbit}Mbit`;
      let link: Link | null =
        spec.mbit === 0 ? null : await startLink({ targetPort: port, rttMs: spec.rttMs, mbitPerSec: spec.mbit });
      try {
        const ratios: number[] = [];
        const appRatios: number[] = [];
        const cpuRatios: number[] = [];
        for (let round = 0; round < rounds; round++) {
          const figures = await linkRound(link, link?.url ?? site.url, spec, lanes, tmpDir);
          ratios.push(figures.ratio);
          appRatios.push(figures.appRatio);
          cpuRatios.push(figures.cpuRatio);
          const line = `link ${name}, round ${round + 1}: ${figures.line}`;
          console.error(line);
          lines.push(line);
        }
        const against = spec.mbit === 0 ? 'the same-requests floor' : 'the bandwidth floor';
        const line =
          `link ${name}, median of ${rounds}: sync / ${against} ${median(ratios).toFixed(2)} ` +
          `(${ratios.map((r) => r.toFixed(2)).join(', ')}); sync / the same requests on the app's HTTP ` +
          `client ${median(appRatios).toFixed(2)}; client cpu user / that client's ${median(cpuRatios).toFixed(2)}x`;
        console.error(line);
        lines.push(line);
      } finally {
        await link?.close();
        link = null;
      }
    }
  } finally {
    await site.stop();
  }
  console.log(
    `\nInitial sync of ${guides} guides over emulated links (one queue per direction at the rate, ` +
      `the delay, a round trip per connection)`,
  );
  for (const line of lines) console.log(line);
}

/** One sync through a link, then the same requests by the bare clients: the figures and the round's line. */
async function linkRound(
  link: Link | null,
  base: string,
  spec: LinkSpec,
  lanes: string[],
  tmpDir: string,
): Promise<{ ratio: number; appRatio: number; cpuRatio: number; line: string }> {
  const sync = await runJsonChild<SyncFigures>('sync-client.ts', [base, ...lanes]);
  // The floor replays the sync's own requests (addresses through this link) with its concurrency.
  const planFile = path.join(tmpDir, `plan-link.json`);
  fs.writeFileSync(planFile, JSON.stringify(buildPlan(sync.initialRequests, sync.concurrency)));
  const before = link ? { ...link.stats } : null;
  const floor = await runJsonChild<FloorFigures>('floor-client.ts', [planFile, await token(base)]);
  const bytes = link && before ? link.stats.bytesDown - before.bytesDown + (link.stats.bytesUp - before.bytesUp) : 0;
  // Both directions share nothing here, so the busier one (down) sets the floor.
  const bandwidthMs = link && before ? (((link.stats.bytesDown - before.bytesDown) * 8) / (spec.mbit * 1e6)) * 1000 : 0;
  // The same requests by a bare client on the app's own HTTP client: the app's cost above the transfer.
  const appFloor = await runJsonChild<FloorFigures>('floor-client.ts', [planFile, await token(base), 'app']);
  const cpuRatio = sync.cpuMs.user / appFloor.cpuMs.user;
  const sameStack =
    `on the app's HTTP client (undici request): ` +
    `floor ${s(appFloor.ms)} s, sync/floor ${(sync.initialMs / appFloor.ms).toFixed(2)}, ` +
    `floor's cpu user ${s(appFloor.cpuMs.user)} s (${cpuRatio.toFixed(2)}x)`;
  const lanesText = `lanes ${sync.concurrency.guides}/${sync.concurrency.media}`;
  const cpu =
    `client cpu user ${s(sync.cpuMs.user)} s, floor's ${s(floor.cpuMs.user)} ` +
    `s (${(sync.cpuMs.user / floor.cpuMs.user).toFixed(2)}x); ${sameStack}`;
  const ratio = sync.initialMs / (spec.mbit === 0 ? floor.ms : bandwidthMs);
  const line =
    spec.mbit === 0
      ? `sync ${s(sync.initialMs)} s, same-requests floor ${s(floor.ms)} s, ratio ` +
        `${ratio.toFixed(2)} (${floor.requests} requests, ${lanesText}; ${cpu})`
      : `sync ${s(sync.initialMs)} s, bandwidth floor ${s(bandwidthMs)} s, ratio ${ratio.toFixed(2)} ` +
        `(same-requests floor ${s(floor.ms)} s; ${floor.requests} requests, ` +
        `${(bytes / 1e6).toFixed(1)} MB over the link, ${lanesText}; ${cpu})`;
  return { ratio, appRatio: sync.initialMs / appFloor.ms, cpuRatio, line };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The replay of a queued outbox (outbox-client.ts: 40 sessions of six actions, as many chains at once as
 * the outbox replays) over each link, beside a bare client making the same requests through the same link
 * (issue 17, target 1.15x). A replay lasts under a second on loopback: `rounds` of both, each in a fresh
 * process, and their medians.
 */
export async function benchReplayOverLinks(
  links: LinkSpec[],
  tmpDir: string,
  sessions: string,
  rounds: number,
): Promise<void> {
  console.error('\nstarting the demo workshop for the outbox replay over the links…');
  const site = await startSiteProcess(['--demo', '--db', path.join(tmpDir, 'replay-demo.sqlite')]);
  const lines: string[] = [];
  try {
    for (const spec of links) {
      const name = spec.mbit === 0 ? 'loopback' : `${spec.rttMs}ms/${spec.mbit}Mbit`;
      const link =
        spec.mbit === 0
          ? null
          : await startLink({ targetPort: Number(new URL(site.url).port), rttMs: spec.rttMs, mbitPerSec: spec.mbit });
      try {
        const runs: {
          actions: number;
          replayMs: number;
          floorMs: number;
          appFloorMs: number;
          cpuMs: { replay: number; floor: number; appFloor: number };
          requests: { replay: number; floor: number; appFloor: number };
        }[] = [];
        for (let round = 0; round < rounds; round++) {
          runs.push(await runJsonChild<(typeof runs)[number]>('outbox-client.ts', [link?.url ?? site.url, sessions]));
        }
        const replayMs = median(runs.map((run) => run.replayMs));
        const floorMs = median(runs.map((run) => run.floorMs));
        // Each round's two figures share its conditions: the ratio printed is the median of the rounds' ratios.
        const ratio = median(runs.map((run) => run.replayMs / run.floorMs));
        const ratios = runs.map((run) => (run.replayMs / run.floorMs).toFixed(2)).join(', ');
        // The client process's CPU (user) includes the proxy's thread
        // (proxy-thread.ts), which the bare client goes through too.
        const cpu =
          `client cpu user ${s(median(runs.map((run) => run.cpuMs.replay)))} s, ` +
          `the bare client's ${s(median(runs.map((run) => run.cpuMs.floor)))} s`;
        const appRatio = median(runs.map((run) => run.replayMs / run.appFloorMs));
        const sameStack =
          `a bare client on the app's HTTP client (undici request) ` +
          `${s(median(runs.map((run) => run.appFloorMs)))} s, ratio ${appRatio.toFixed(2)} ` +
          `(cpu user ${s(median(runs.map((run) => run.cpuMs.appFloor)))} s, ${runs[0]!.requests.appFloor} requests)`;
        const line =
          `replay over ${name}: ${runs[0]!.actions} actions in ${s(replayMs)} s, ` +
          `a bare client ${s(floorMs)} s, ratio ${ratio.toFixed(2)} ` +
          `(medians of ${runs.length} rounds, of the times and of the rounds' ratios; ` +
          `each round's ratio ${ratios}; requests ${runs[0]!.requests.replay} and ` +
          `${runs[0]!.requests.floor}; ${cpu}); ${sameStack}`;
        console.error(line);
        lines.push(line);
      } finally {
        await link?.close();
      }
    }
  } finally {
    await site.stop();
  }
  console.log('\nOutbox replay over the same links (target: within 1.15x of the bare client)');
  for (const line of lines) console.log(line);
}
