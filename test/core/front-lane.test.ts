import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../server/generator/generator.ts';
import type { RunningSite } from '../../server/site.ts';
import { FRONT_CONNECTIONS } from '../../electron/core/api/http.ts';
import { FRONT_WARM_MS } from '../../electron/core/sync/front-lane.ts';
import { startLink, type Link } from '../fault/link.ts';
import { startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { firstSyncStoring, unstoredGuide } from '../helpers/first-sync.ts';

// Issue 29: a guide kept while a first sync fills the connections to the site is asked on the front lane
// (api/http.ts, sync/front-lane.ts): on connections opened before the technician asked, not on new ones
// (each a handshake, a round trip before its first byte) nor behind the sync's answers. Read from the
// connection each request line came on, through an emulated link with a 100 ms round trip.
let site: RunningSite;
const opened: { link: Link; app: ReturnType<typeof makeServices> }[] = [];

beforeAll(async () => {
  site = await startTestSite({ seed: (db) => void generateSite(db, { guides: 200, steps: 6, images: 1, seed: 1 }) });
}, 60_000);
afterEach(async () => {
  for (const { app, link } of opened.splice(0)) {
    await app.dispose();
    await link.close();
  }
});
afterAll(async () => {
  await site?.close();
});

interface Line {
  connection: number;
  method: string;
  target: string;
}

/**
 * Signs in through a link at `mbit`, starts a first sync of everything, waits until it stores guides and
 * `waitMs` more, then keeps a guide it has not stored: the request lines seen, and how many connections
 * the link had carried when the guide was asked.
 */
async function keepDuringSync(
  mbit: number,
  waitMs: number,
): Promise<{ lines: Line[]; openBefore: number; guideid: number }> {
  const lines: Line[] = [];
  const link = await startLink({
    targetPort: Number(new URL(site.url).port),
    rttMs: 100,
    mbitPerSec: mbit,
    onRequest: (connection, method, target) => lines.push({ connection, method, target }),
  });
  const app = makeServices();
  opened.push({ link, app });
  const { api } = app.services;
  const { sync } = await firstSyncStoring(app.services, link.url);
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const guideid = await unstoredGuide(app.services, site);
  expect(guideid, 'a guide the sync has not stored yet').toBeDefined();
  const openBefore = link.stats.connections;
  const kept = unwrap(await api.keepGuideOffline(guideid!));
  expect(kept.stored).toBe(true);
  const state = unwrap(await api.getSyncState());
  expect(state.running, 'the sync was still running when the guide was kept').toBe(true);
  unwrap(await api.cancelSync());
  await sync;
  return { lines, openBefore, guideid: guideid! };
}

/** The guide's text requests (the guide and its forms), each with the lines its connection carried before it. */
function textRequests(lines: Line[], guideid: number): { line: Line; before: Line[] }[] {
  const path = (target: string) => target.split('?')[0]!;
  const wanted = [`/api/2.0/guides/${guideid}`, `/api/2.0/step_forms/guideid/${guideid}`];
  return lines
    .filter((line) => wanted.includes(path(line.target)))
    .map((line) => ({
      line,
      before: lines.slice(0, lines.indexOf(line)).filter((other) => other.connection === line.connection),
    }));
}

describe('the front lane', () => {
  it('carries a guide kept during a first sync on connections open before it was asked', async () => {
    const { lines, openBefore, guideid } = await keepDuringSync(4, 0);
    const text = textRequests(lines, guideid);
    expect(text.map(({ line }) => line.method)).toEqual(['GET', 'GET']);
    for (const { line, before } of text) {
      expect(line.connection, `${line.target} came on a connection opened after it was asked`).toBeLessThanOrEqual(
        openBefore,
      );
      // A connection of the front lane: kept open by the lane's own small question, never a sync's.
      expect(before.length).toBeGreaterThan(0);
      expect(before.map((other) => other.target)).toEqual(before.map(() => '/api/2.0/user'));
    }
    // The lane opened its connections as the sync began.
    const lane = lines.filter((line) => line.target === '/api/2.0/user');
    expect(new Set(lane.map((line) => line.connection)).size).toBeGreaterThanOrEqual(FRONT_CONNECTIONS);
  }, 60_000);

  it("is kept open past the site's keep-alive while a long sync runs", async () => {
    // The reference site closes a connection idle for 5 s (Node's default); the guide is kept 7 s into a
    // sync slowed by a 0.5 Mbit link, so a lane left idle since the sync began would be closed by then.
    const { lines, openBefore, guideid } = await keepDuringSync(0.5, 7_000);
    const text = textRequests(lines, guideid);
    expect(text).toHaveLength(2);
    for (const { line, before } of text) {
      expect(line.connection, `${line.target} came on a new connection`).toBeLessThanOrEqual(openBefore);
      // Asked again every FRONT_WARM_MS meanwhile: several of the lane's questions came on this connection.
      expect(before.length).toBeGreaterThanOrEqual(Math.floor(7_000 / FRONT_WARM_MS));
      expect(before.map((other) => other.target)).toEqual(before.map(() => '/api/2.0/user'));
    }
  }, 60_000);
});
