import { describe, expect, it, type TestContext } from 'vitest';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { CHECKS_AFTER } from '../../electron/core/worklog/replay/doubles-check.ts';
import { startDemoSite, type RunningSite, type SiteOptions } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { photoGuide } from '../helpers/worklog.ts';

// A slow site (issue 24, item 4): it applies a start or an upload after the client's limit, whether the
// client still waits or not. The client's limit is shortened (LIMIT_MS) so the test takes seconds. Each
// case has a site and an app of its own, and the cases run side by side: they mostly wait for the site.
const LIMIT_MS = 1500;

/** An app and its slow site; `skip` moves the app's clocks (wall and monotonic) forward. */
type App = ReturnType<typeof makeServices> & { site: RunningSite; skip: (ms: number) => void };

async function slowSite(
  slowWrites: NonNullable<SiteOptions['slowWrites']>,
  onTestFinished: TestContext['onTestFinished'],
  more: Pick<SiteOptions, 'ownClock'> = {},
): Promise<App> {
  const site = await startDemoSite({ testHooks: true, slowWrites, ...more });
  const folder = makeTempDir('slow-site');
  let app: ReturnType<typeof makeServices> | undefined;
  onTestFinished(async () => {
    await app?.dispose();
    await site.close();
    folder.remove();
  });
  // The library is synced with the usual limit; the work goes out with the short one.
  const first = makeServices(folder.dir);
  await signInAndSync(first.services, site.url);
  await first.dispose();
  let ahead = 0;
  const clocks = { clock: () => Date.now() + ahead, monotonic: () => performance.now() + ahead };
  app = makeServices(folder.dir, { requestTimeoutMs: LIMIT_MS, ...clocks });
  await app.services.start();
  return { ...app, site, skip: (ms) => void (ahead += ms) };
}

/** `count` sessions started; the first `photos` of them with a photo attached. */
async function work(running: App, prefix: string, count: number, photos: number) {
  const { guide, stepid, fieldGuid } = await photoGuide(running.services.api);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const input = { guideid: guide.guideid, workorderid: `${prefix}-${i}` };
    const session = unwrap(await running.services.api.startSession(input));
    if (i < photos) {
      const canvas = createCanvas(8, 6, [40 * i, 90, 160]);
      const dataBase64 = encodePng(canvas).toString('base64');
      const photo = { sessionId: session.id, stepid, fieldGuid, name: `valve-${i}.png`, mime: 'image/png', dataBase64 };
      unwrap(await running.services.api.attachFile(photo));
    }
    ids.push(session.id);
  }
  return ids;
}

/** Send now, again and again (bounded), until nothing of the technician's waits. */
async function drain(running: App): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const summary = unwrap(await running.services.api.flushOutbox());
    if (summary.pending + summary.inFlight + summary.failed === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const { summary } = unwrap(await running.services.api.getOutbox());
  throw new Error(`the outbox did not drain: ${JSON.stringify(summary)}`);
}

/** What the site holds of the test's work: entries per work order, uploads per file name. */
async function onTheSite(
  site: RunningSite,
  prefix: string,
): Promise<{ entries: Map<string, number>; uploads: Map<string, number> }> {
  const tech = await signIn(site, 'tech1');
  const listed = await api(site, 'GET', `/work_log?userid=${tech.userid}&limit=200`, { token: tech.token });
  const entries = new Map<string, number>();
  for (const entry of (listed.body as { results: { workorderid: string }[] }).results) {
    const order = entry.workorderid;
    if (order.startsWith(`${prefix}-`)) entries.set(order, (entries.get(order) ?? 0) + 1);
  }
  const media = await api(site, 'GET', '/user/media/current?limit=200', { token: tech.token });
  const uploads = new Map<string, number>();
  for (const item of media.body as { name: string }[]) {
    if (/^fg-.*valve-\d\.png$/.test(item.name)) uploads.set(item.name, (uploads.get(item.name) ?? 0) + 1);
  }
  return { entries, uploads };
}

const once = (counts: Map<string, number>): boolean => [...counts.values()].every((n) => n === 1);

/** Second copies the site made and the app removed, from the site's own record of what it applied. */
async function doublesRemoved(
  site: RunningSite,
  entity: 'work_log' | 'user_media',
): Promise<{ made: number; removed: number }> {
  const applied = await audit(site, entity);
  const creates = /\/(work_log|user\/media\/uploads)$/;
  const created = applied.filter((a) => a.method === 'POST' && creates.test(a.path.split('?')[0]!));
  const removed = applied.filter((a) => a.method === 'DELETE').length;
  return { made: created.length, removed };
}

/**
 * Lets the site finish what it was still applying, then lets the app's checks for second copies run:
 * its clocks move past the last of them (they keep their own times, Send now does not hurry them), and
 * Send now replays what is due, until every copy made beyond one is removed (bounded).
 */
async function settleSite(running: App, slowMs: number, entity: 'work_log' | 'user_media', prefix: string) {
  await new Promise((resolve) => setTimeout(resolve, slowMs + 500));
  running.skip(CHECKS_AFTER.at(-1)! * LIMIT_MS + 1000);
  const onSite = await onTheSite(running.site, prefix);
  const works = (entity === 'work_log' ? onSite.entries : onSite.uploads).size;
  for (let i = 0; i < 60; i++) {
    const { made, removed } = await doublesRemoved(running.site, entity);
    if (made - removed <= works && (await notices(running)).length >= removed) return;
    unwrap(await running.services.api.flushOutbox());
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const notices = async (running: App) =>
  unwrap(await running.services.api.listConflicts()).filter((record) => record.kind === ('notice' as string));

describe.concurrent('a site that applies starts and uploads after the client gave up', () => {
  it('gets each start and each photo once: the client looks later and longer before sending again', async ({
    onTestFinished,
  }) => {
    const running = await slowSite({ ms: 4000 }, onTestFinished);
    const ids = await work(running, 'WO-SLOW', 6, 2);
    // While it waits to look again, the Sync centre says the site answered the look: not there yet, and why it
    // is not sent again at once (it said "the site has not answered whether it took the start").
    let said: string | null = null;
    for (let i = 0; i < 40 && said === null; i++) {
      unwrap(await running.services.api.flushOutbox());
      const { actions } = unwrap(await running.services.api.getOutbox());
      said = actions.find((a) => a.kind === 'start' && a.error?.includes('not on the site yet'))?.error ?? null;
      if (said === null) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(said).toBe(
      'The start of this session is not on the site yet, but no answer came when it was sent: a slow site may ' +
        'still be taking it. It is looked for once more and sent again only if it is still not there, so that it ' +
        'is not made twice.',
    );
    await drain(running);
    await settleSite(running, 4000, 'work_log', 'WO-SLOW');
    const { entries, uploads } = await onTheSite(running.site, 'WO-SLOW');
    expect(entries.size).toBe(ids.length);
    expect(uploads.size).toBe(2);
    expect({ entries: once(entries), uploads: once(uploads) }).toEqual({ entries: true, uploads: true });
    // Never two: each start and each photo was found by a later look, not sent again.
    expect(await doublesRemoved(running.site, 'work_log')).toEqual({ made: ids.length, removed: 0 });
    expect(await doublesRemoved(running.site, 'user_media')).toEqual({ made: 2, removed: 0 });
    expect(await notices(running)).toEqual([]);
  }, 120_000);

  it('gets each start once from a site on its own clock, which records a start when it applies it', async ({
    onTestFinished,
  }) => {
    // A real Dozuki start is `{guideid, workorderid}`: the site keeps no `timestamp`. The look sought the start at
    // the time it was sent with, never found it, sent it again, and the site kept two entries of each session.
    const running = await slowSite({ ms: 4000, writes: ['start'], first: 2 }, onTestFinished, { ownClock: true });
    const ids = await work(running, 'WO-CLOCK', 2, 0);
    await drain(running);
    await settleSite(running, 4000, 'work_log', 'WO-CLOCK');
    const { entries } = await onTheSite(running.site, 'WO-CLOCK');
    expect(Object.fromEntries(entries)).toEqual({ 'WO-CLOCK-0': 1, 'WO-CLOCK-1': 1 });
    expect(await doublesRemoved(running.site, 'work_log')).toEqual({ made: ids.length, removed: 0 });
    expect(await notices(running)).toEqual([]);
    for (const id of ids) expect(unwrap(await running.services.api.getSession(id)).entryid).not.toBeNull();
  }, 120_000);

  it('removes a second entry that lands after the start was sent again, and says so', async ({ onTestFinished }) => {
    const running = await slowSite({ ms: 16_000, writes: ['start'], first: 3 }, onTestFinished);
    const ids = await work(running, 'WO-LATE', 3, 0);
    await drain(running);
    await settleSite(running, 16_000, 'work_log', 'WO-LATE');
    const { entries } = await onTheSite(running.site, 'WO-LATE');
    expect(entries.size).toBe(ids.length);
    expect(once(entries)).toBe(true);
    // Sent again after the looks, each start landed twice; the second of each was removed, and said.
    const { made, removed } = await doublesRemoved(running.site, 'work_log');
    expect({ made, removed }).toEqual({ made: 2 * ids.length, removed: ids.length });
    const said = await notices(running);
    expect(said.map((n) => n.sessionId).sort()).toEqual([...ids].sort());
    expect(said[0]!.message).toMatch(/removed/i);
    // Each session goes on in the entry it kept.
    for (const id of ids) expect(unwrap(await running.services.api.getSession(id)).entryid).not.toBeNull();
  }, 120_000);

  it('removes a second entry that lands after the start was sent again, on a site on its own clock too', async ({
    onTestFinished,
  }) => {
    // The check for a second copy sought it at the time the start was sent with: on a site that keeps its own,
    // the late one stayed on the site beside the session's.
    const running = await slowSite({ ms: 16_000, writes: ['start'], first: 1 }, onTestFinished, { ownClock: true });
    const [id] = await work(running, 'WO-CLOCK-LATE', 1, 0);
    await drain(running);
    await settleSite(running, 16_000, 'work_log', 'WO-CLOCK-LATE');
    const { entries } = await onTheSite(running.site, 'WO-CLOCK-LATE');
    expect(Object.fromEntries(entries)).toEqual({ 'WO-CLOCK-LATE-0': 1 });
    expect(await doublesRemoved(running.site, 'work_log')).toEqual({ made: 2, removed: 1 });
    expect((await notices(running)).map((n) => n.sessionId)).toEqual([id]);
  }, 120_000);

  it('removes a second copy of a photo when the site is slow on every upload, and says so', async ({
    onTestFinished,
  }) => {
    const running = await slowSite({ ms: 16_000, writes: ['upload'] }, onTestFinished);
    const ids = await work(running, 'WO-PHOTO', 2, 2);
    await drain(running);
    await settleSite(running, 16_000, 'user_media', 'WO-PHOTO');
    const { uploads } = await onTheSite(running.site, 'WO-PHOTO');
    expect(uploads.size).toBe(2);
    expect(once(uploads)).toBe(true);
    // A photo is sent again only when the looks found nothing: each second copy was removed and said.
    const { made, removed } = await doublesRemoved(running.site, 'user_media');
    expect(removed).toBe(made - 2);
    expect(removed).toBeGreaterThan(0);
    expect((await notices(running)).length).toBe(removed);
  }, 120_000);
});
