// The transfer floor: the same requests as a sync, with the same concurrency, by a bare loop that
// discards the bodies. Prints the time as JSON. Its HTTP client: `fetch` (Node's own, the floor the
// issue's figures were measured against; the app used it then), or `app`, the app's own (api/http.ts:
// undici's request; an API answer read whole, a file as it arrives), so the app's cost above the
// transfer shows apart from what its HTTP client saves.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { siteHttp } from '../../electron/core/api/http.ts';
import { MAX_JSON_BYTES } from '../../electron/core/api/redirects.ts';
import { runBounded } from '../../electron/core/sync/pool.ts';
import type { RequestPlan } from './plan.ts';

const [planFile, token, client = 'fetch'] = process.argv.slice(2);
if (!planFile || !token || !['fetch', 'app'].includes(client))
  throw new Error('usage: floor-client.ts <plan.json> <token> [fetch|app]');
const plan = JSON.parse(fs.readFileSync(planFile, 'utf8')) as RequestPlan;
const headers = { Authorization: `api ${token}`, Accept: 'application/json' };

async function get(url: string): Promise<void> {
  // Read and drop: the floor pays for the transfer, not for parsing or storing.
  if (client === 'app') {
    // As the app reads them: an API answer whole (decoded in one call), a file as it arrives.
    const answer = await siteHttp(new URL(url), { headers });
    if (answer.headers.get('content-type')?.includes('json')) await answer.bytes(MAX_JSON_BYTES);
    else for await (const chunk of answer.body) void chunk;
    return;
  }
  const response = await fetch(url, { headers });
  const reader = response.body!.getReader();
  for (;;) if ((await reader.read()).done) break;
}

const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (const url of plan.sequential) await get(url);
const t1 = performance.now();
await runBounded(plan.guides, plan.concurrency.guides, async (guide) => {
  await Promise.all(guide.parallel.map(get));
  for (const url of guide.then) await get(url);
});
const t2 = performance.now();
await runBounded(plan.media, plan.concurrency.media, get);
const t3 = performance.now();
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    ms: t3 - t0,
    cpuMs: { user: cpu.user / 1000, system: cpu.system / 1000 },
    phaseMs: { listing: t1 - t0, guides: t2 - t1, media: t3 - t2 },
    requests:
      plan.sequential.length +
      plan.guides.reduce((n, g) => n + g.parallel.length + g.then.length, 0) +
      plan.media.length,
  }),
);
