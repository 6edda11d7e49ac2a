import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi, GuideDetail, GuideListItem } from '../../electron/contract.ts';
import { zoomCandidates } from '../../electron/shared/media.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { startTestSite } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// A guide outside the offline scope read from the site while it answers, and its stored summary when it
// does not; the media route's alternatives and its fetches from the site; the list's stored-picture flag.
// All over real HTTP against the reference server, into real SQLite files.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
/** Guides kept whole in the second sync: Welding (and MIG Welders below it) only. */
const KEPT = 'Welding';
let outside: GuideListItem;
let insideId: number;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  app = makeServices();
  api = app.services.api;
  unwrap(
    await api.signIn({ siteUrl: site.url, email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  );
  // Everything first (so the pictures of every guide are stored), then one category only.
  expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete' });
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [KEPT], guideids: [] }));
  expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete' });
  const items = unwrap(await api.listGuides({ limit: 200 })).items;
  outside = items.find((g) => g.offline === 'summary' && g.category === 'Air Compressors')!;
  insideId = items.find((g) => g.offline === 'full')!.guideid;
  expect(outside).toBeDefined();
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

const stepImages = (guide: GuideDetail) =>
  guide.steps.flatMap((step) => (step.media.type === 'image' ? step.media.images : []));

describe('a guide outside the offline scope', () => {
  it('is read from the site while it answers, marked so, and not kept', async () => {
    const before = unwrap(await api.getSyncState()).guides;
    const guide = unwrap(await api.getGuide(outside.guideid));
    expect(guide).toMatchObject({ guideid: outside.guideid, title: outside.title, readFromSite: true, quizzes: [] });
    expect(guide.steps.length).toBeGreaterThan(0);
    expect(stepImages(guide).length).toBeGreaterThan(0);
    expect(unwrap(await api.getSyncState()).guides).toEqual(before);
    expect(unwrap(await api.listGuides({ guideids: [outside.guideid] })).items[0]!.offline).toBe('summary');
    expect(unwrap(await api.getGuide(insideId)).readFromSite).toBeUndefined();
  });

  it('keeps its summary, with the picture that is still stored', async () => {
    const summary = unwrap(await api.getGuideSummary(outside.guideid));
    expect(summary).toMatchObject({
      guideid: outside.guideid,
      title: outside.title,
      offline: 'summary',
      thumbnailStored: true,
    });
    expect(summary.summary.length).toBeGreaterThan(10);
    expect(summary.picture).toBe(summary.image?.standard);
    expect(app.services.resolveMedia(summary.picture!)).not.toBeNull();
  });

  it(
    'has its pictures fetched through the media route only when the address allows it, ' +
      'and only the ones the library knows',
    async () => {
      const guide = unwrap(await api.getGuide(outside.guideid));
      const image = stepImages(guide)[0]!;
      // Its original was never stored: served from the site when live, refused otherwise.
      expect(app.services.resolveMedia(image.original!)).toBeNull();
      const live = await app.services.openMedia({ urls: [image.original!], live: true });
      expect(live).toMatchObject({ cache: 'private', mime: 'image/png' });
      expect(live!.data!.equals(Buffer.from(await (await fetch(image.original!)).arrayBuffer()))).toBe(true);
      expect(await app.services.openMedia({ urls: [image.original!], live: false })).toBeNull();
      // Alternatives: the best stored one stands in, not cached (large, kept by default, before standard).
      const standIn = await app.services.openMedia({ urls: zoomCandidates(image), live: false });
      const best = zoomCandidates(image)
        .map((url) => app.services.resolveMedia(url))
        .find((stored) => stored !== null);
      expect(best!.bytes).toBeGreaterThan(app.services.resolveMedia(image.standard!)!.bytes);
      expect(standIn).toMatchObject({ cache: 'none', bytes: best!.bytes });
      // Addresses the library does not know are never fetched, whatever the address asks.
      for (const url of [
        `${site.url}/igi/unknownguid`,
        `${site.url}/api/2.0/user`,
        'http://127.0.0.1:9/x.png',
        'file:///etc/passwd',
      ]) {
        expect(await app.services.openMedia({ urls: [url], live: true }), url).toBeNull();
      }
    },
  );

  it('shows its stored summary when the site does not answer, and says why', async () => {
    const guide = unwrap(await api.getGuide(outside.guideid));
    const image = stepImages(guide)[0]!;
    await site.close();
    const offline = await api.getGuide(outside.guideid);
    expect(offline.ok).toBe(false);
    if (offline.ok) return;
    expect(offline.error).toMatchObject({ code: 'offline', details: { guideid: outside.guideid, offline: 'summary' } });
    expect(offline.error.message).toContain(outside.title);
    expect(app.events.some((event) => event.name === 'network' && event.payload === 'offline')).toBe(true);
    expect(unwrap(await api.getGuideSummary(outside.guideid)).title).toBe(outside.title);
    // Offline, the lightbox's address gets the best stored variant, never an error.
    expect(await app.services.openMedia({ urls: zoomCandidates(image), live: true })).toMatchObject({ cache: 'none' });
    expect(unwrap(await api.getGuide(insideId)).guideid).toBe(insideId);
    expect(await api.getGuide(999_999)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('the list knows which pictures are stored', () => {
  it('flags each row whose list picture is here, and no other', async () => {
    const rows = unwrap(await api.listGuides({ limit: 200 })).items;
    expect(rows.length).toBe((await allLocalGuides(api)).length);
    for (const row of rows)
      expect(row.thumbnailStored, row.title).toBe(
        row.image?.thumbnail !== undefined && app.services.resolveMedia(row.image.thumbnail) !== null,
      );
    expect(rows.some((row) => row.thumbnailStored)).toBe(true);
    // A budget that keeps only what the kept guides need: the others' pictures go, and their rows say so.
    unwrap(await api.setStorageBudget(1));
    const after = unwrap(await api.listGuides({ limit: 200 })).items;
    expect(after.filter((row) => row.offline === 'summary').every((row) => !row.thumbnailStored)).toBe(true);
    expect(after.filter((row) => row.offline === 'full' && row.image).every((row) => row.thumbnailStored)).toBe(true);
    const search = unwrap(await api.search({ text: outside.title, where: 'local' }));
    expect(search.items.find((item) => item.guideid === outside.guideid)?.thumbnailStored).toBe(false);
  });
});
