import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_APP_ID, type Dialect } from '../../server/http/dialects.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { siteHttp } from '../../electron/core/api/http.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';

const guideIdOf = (key: string): number => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;

// Sync against the real reference server over real HTTP, into real SQLite files and a real media folder.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const requests: string[] = [];
/**
 * A signed-in technician's own lists, read at every sync (their favourites are kept whole). Completions
 * are read to two empty pages in a row (on iFixit's sites a short page, or an empty one, is not the end):
 * the demo's fill one page.
 */
const MARKS = [
  'GET /user/favorites/guides',
  'GET /user/completions?offset=0&limit=200',
  'GET /user/completions?offset=200&limit=200',
  'GET /user/completions?offset=400&limit=200',
];
/** The dialect of API 2.0 the site speaks (each describe below sets it): the sync is the same in both. */
let dialect: Dialect = 'dozuki';

beforeEach(async () => {
  site = await startTestSite({ demo: true, dialect });
  requests.length = 0;
  app = makeServices(undefined, {
    http: (url, init) => {
      requests.push(`${init.method ?? 'GET'} ${url.pathname.replace('/api/2.0', '')}${url.search}`);
      return siteHttp(url, init);
    },
  });
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
  // The step pictures the steps show, no zoom variant: what these tests count (picture-quality.test.ts has those).
  unwrap(await app.services.api.setPictureQuality('standard'));
});
afterEach(async () => {
  await app.dispose();
  await site.close();
});

async function serverGuides(): Promise<Map<number, number>> {
  const listing = await api(site, 'GET', '/guides', { query: { limit: 200 } });
  return new Map((listing.body as { guideid: number; revisionid: number }[]).map((g) => [g.guideid, g.revisionid]));
}

const storedSize = (content: { data?: Buffer; path?: string }): number =>
  content.data?.length ?? fs.statSync(content.path!).size;

describe.each(['dozuki', 'ifixit'] as Dialect[])('syncing the library, %s dialect', (speaks) => {
  beforeAll(() => {
    dialect = speaks;
  });

  it('stores every guide, step form, quiz and media file, readable with the server stopped', async () => {
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome).toMatchObject({ status: 'complete', error: null });
    const onServer = await serverGuides();
    expect(onServer.size).toBeGreaterThanOrEqual(10);
    await site.close();

    const local = await allLocalGuides(app.services.api);
    expect(local.map((g) => g.guideid).sort((a, b) => a - b)).toEqual([...onServer.keys()].sort((a, b) => a - b));
    let forms = 0;
    let quizzes = 0;
    let media = 0;
    const kinds = new Set<string>();
    const fieldTypes = new Set<string>();
    for (const { guideid } of local) {
      const guide = unwrap(await app.services.api.getGuide(guideid));
      expect(guide.revisionid).toBe(onServer.get(guideid));
      expect(guide.steps.length).toBeGreaterThan(0);
      for (const step of guide.steps) {
        if (step.form) {
          forms++;
          for (const field of step.form.fields) fieldTypes.add(field.type);
        }
      }
      for (const quiz of guide.quizzes) {
        const revision = unwrap(await app.services.api.getQuiz(quiz.quizRevisionid));
        expect(revision.survey).toBeTypeOf('object');
        quizzes++;
      }
      for (const url of mediaOf(guide)) {
        const file = app.services.resolveMedia(url);
        expect(file, url).not.toBeNull();
        expect(storedSize(file!), url).toBe(file!.bytes);
        // Pictures from the pictures database; the PDFs and the video from files.
        kinds.add(`${file!.mime.split('/')[0]} in ${file!.data ? 'database' : 'file'}`);
        media++;
      }
    }
    expect(forms).toBeGreaterThan(0);
    expect(fieldTypes.size).toBe(9);
    expect(quizzes).toBeGreaterThanOrEqual(3);
    expect(media).toBeGreaterThan(10);
    expect([...kinds].sort()).toEqual(['application in file', 'image in database', 'video in file']);
    // Each tag the filter suggests finds as many guides as it says.
    const tags = unwrap(await app.services.api.listTags());
    expect(tags.length).toBeGreaterThan(3);
    expect(tags.map((t) => t.guides)).toEqual(tags.map((t) => t.guides).sort((a, b) => b - a));
    for (const { tag, guides } of tags)
      expect(unwrap(await app.services.api.listGuides({ tag, limit: 1 })).total, tag).toBe(guides);
    const state = unwrap(await app.services.api.getSyncState());
    expect(state.storage.mediaBytes).toBeGreaterThan(0);
    expect(state.storage.pendingMedia).toBe(0);
    expect(state.guides).toEqual({ total: local.length, offline: local.length });
  });

  it('after three changes and a deletion makes only the requests those need, and then equals the server', async () => {
    unwrap(await app.services.api.syncNow());
    const admin = await signIn(site, 'admin');
    const onServer = await serverGuides();
    // Guides no other guide needs first (a changed prerequisite stores the guides that need it again too).
    const needed = new Set(DEMO_GUIDES.flatMap((guide) => guide.prereqs ?? []).map(guideIdOf));
    const [a, b, c, gone] = [...onServer.keys()].filter((id) => !needed.has(id));
    for (const id of [a!, b!, c!]) {
      const patched = await api(site, 'PATCH', `/guides/${id}`, {
        token: admin.token,
        query: { revisionid: onServer.get(id) },
        json: { title: `Revised guide ${id}` },
      });
      expect(patched.status).toBe(200);
    }
    // As iFixit's description has it, a deletion names the revision it deletes.
    const deleted = await api(site, 'DELETE', `/guides/${gone}`, {
      token: admin.token,
      query: { revisionid: onServer.get(gone!) },
    });
    expect(deleted.status).toBeLessThan(300);

    requests.length = 0;
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome).toMatchObject({ status: 'complete', changed: 3, deleted: 1 });
    const perGuide = (id: number) =>
      requests.filter((r) => new RegExp(`/(guides|guideid|associations)/${id}(/tags)?($|\\?)`).test(r));
    for (const id of [a!, b!, c!]) {
      const wanted = [`GET /guides/${id}?excludePrerequisiteSteps=true`, `GET /guides/${id}/tags`];
      wanted.push(`GET /quizzes/associations/${id}`, `GET /step_forms/guideid/${id}`);
      expect(perGuide(id).sort()).toEqual(wanted.sort());
    }
    const listings = requests.filter((r) => r.startsWith('GET /guides?'));
    // A changed guide's quizzes: their course stages and the passing score each stage sets.
    const quizzesOf = new Set<string>();
    for (const id of [a!, b!, c!])
      for (const quiz of unwrap(await app.services.api.getGuide(id)).quizzes) quizzesOf.add(String(quiz.quizid));
    const quizRequest = (r: string) => /^GET \/quizzes\/(courseAssignments\/(\d+)|passingScore\/\d+\/(\d+))$/.exec(r);
    const others = requests.filter((r) => !listings.includes(r) && ![a, b, c].some((id) => perGuide(id!).includes(r)));
    for (const r of others.filter((r) => quizRequest(r)))
      expect(quizzesOf.has(quizRequest(r)![2] ?? quizRequest(r)![3]!), r).toBe(true);
    // The deleted guide, left out of the deletion check's answer, is confirmed gone by its own 404.
    const quizList = (r: string) => r.startsWith('POST /quizzes/getQuizzes');
    // On an iFixit site a changed guide's video step carries only its id: the video is asked for.
    const video = (r: string) => speaks === 'ifixit' && r.startsWith('GET /media/videos/');
    const rest = others.filter((r) => !r.startsWith('GET /categories') && !quizRequest(r) && !quizList(r) && !video(r));
    expect(rest).toEqual([...MARKS, `GET /guides/${gone}?excludePrerequisiteSteps=true`]);
    // The listing, 200 a page; the deletion check, 50 ids a call.
    expect(listings.length).toBe(Math.ceil(onServer.size / 200) + Math.ceil(onServer.size / 50));
    expect(outcome.requests).toBe(requests.length);

    const after = await serverGuides();
    const local = await allLocalGuides(app.services.api);
    expect(local.map((g) => g.guideid).sort((x, y) => x - y)).toEqual([...after.keys()].sort((x, y) => x - y));
    for (const id of [a!, b!, c!])
      expect(unwrap(await app.services.api.getGuide(id)).title).toBe(`Revised guide ${id}`);
    expect((await app.services.api.getGuide(gone!)).ok).toBe(false);
  });

  it(
    'a media file found short or missing, ' +
      'or a picture missing from its database, is not served and is downloaded again',
    async () => {
      unwrap(await app.services.api.syncNow());
      const everyUrl: string[] = [];
      for (const { guideid } of await allLocalGuides(app.services.api))
        everyUrl.push(...mediaOf(unwrap(await app.services.api.getGuide(guideid))));
      const files = everyUrl.filter((url) => app.services.resolveMedia(url)?.path !== undefined);
      const picture = everyUrl.find((url) => app.services.resolveMedia(url)?.data !== undefined)!;
      expect(files.length).toBeGreaterThanOrEqual(2);
      const [first, second] = files;
      const a = app.services.resolveMedia(first!)!;
      const b = app.services.resolveMedia(second!)!;
      fs.truncateSync(a.path!, Math.floor(a.bytes / 2));
      fs.rmSync(b.path!);
      const pictures = new Database(path.join(app.dataDir, 'media', 'pictures.sqlite'));
      const pictureBytes = app.services.resolveMedia(picture)!.bytes;
      pictures.prepare('DELETE FROM picture WHERE length(data) = ?').run(pictureBytes);
      pictures.close();
      for (const url of [first!, second!, picture]) expect(app.services.resolveMedia(url), url).toBeNull();
      expect(unwrap(await app.services.api.syncNow()).mediaDownloaded).toBeGreaterThanOrEqual(3);
      expect(fs.statSync(app.services.resolveMedia(first!)!.path!).size).toBe(a.bytes);
      expect(fs.statSync(app.services.resolveMedia(second!)!.path!).size).toBe(b.bytes);
      expect(app.services.resolveMedia(picture)!.data!.length).toBe(pictureBytes);
    },
  );

  it('a damaged pictures database is set aside at start, and the next sync downloads its pictures again', async () => {
    unwrap(await app.services.api.syncNow());
    const pictureUrls: string[] = [];
    for (const { guideid } of await allLocalGuides(app.services.api)) {
      for (const url of mediaOf(unwrap(await app.services.api.getGuide(guideid)))) {
        // A prerequisite's pictures are shown in every guide that needs it: counted once.
        if (app.services.resolveMedia(url)?.data && !pictureUrls.includes(url)) pictureUrls.push(url);
      }
    }
    expect(pictureUrls.length).toBeGreaterThan(10);
    const dataDir = app.dataDir;
    await app.services.close(); // afterEach closes it again (a no-op) and removes the folder
    const file = path.join(dataDir, 'media', 'pictures.sqlite');
    for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    fs.writeFileSync(file, Buffer.alloc(8192, 0x5a)); // not a database

    const reopened = makeServices(dataDir);
    try {
      const logs = reopened.logs.join('\n');
      expect(logs).toMatch(/pictures database was damaged.*moved to .*pictures\.sqlite\.damaged-\d+/);
      expect(logs).toContain(`${pictureUrls.length} stored picture(s) were missing`);
      expect(
        fs.readdirSync(path.join(dataDir, 'media')).some((name) => name.startsWith('pictures.sqlite.damaged-')),
      ).toBe(true);
      for (const url of pictureUrls) expect(reopened.services.resolveMedia(url)).toBeNull();
      expect(unwrap(await reopened.services.api.getSyncState()).storage.pendingMedia).toBe(pictureUrls.length);
      const outcome = unwrap(await reopened.services.api.syncNow());
      expect(outcome).toMatchObject({ status: 'complete', mediaDownloaded: pictureUrls.length });
      for (const url of pictureUrls) expect(reopened.services.resolveMedia(url)?.data, url).toBeDefined();
    } finally {
      await reopened.services.close();
    }
  });

  it('with nothing changed costs only the listing requests', async () => {
    unwrap(await app.services.api.syncNow());
    requests.length = 0;
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome).toMatchObject({ status: 'complete', changed: 0, deleted: 0, mediaDownloaded: 0 });
    // The guide listing, the deletion check, the technician's favourites and completions and the quiz
    // list: nothing else.
    expect(requests.filter((r) => !r.startsWith('GET /guides?'))).toEqual([...MARKS, 'POST /quizzes/getQuizzes']);
    const guides = (await serverGuides()).size;
    expect(requests.length).toBe(1 + MARKS.length + Math.ceil(guides / 200) + Math.ceil(guides / 50));
  });

  it("reports each sync's own figures: the bytes of the last sync are not carried into the next", async () => {
    unwrap(await app.services.api.syncNow());
    const first = app.events.filter((e) => e.name === 'syncProgress').map((e) => e.payload as { bytes: number });
    expect(Math.max(...first.map((p) => p.bytes))).toBeGreaterThan(0);
    app.events.length = 0;
    unwrap(await app.services.api.syncNow());
    const second = app.events
      .filter((e) => e.name === 'syncProgress')
      .map((e) => e.payload as { phase: string; bytes: number });
    expect(second.length).toBeGreaterThan(0);
    // Nothing changed, so nothing was downloaded: every figure of this sync says so.
    expect(second.map((p) => p.bytes)).toEqual(second.map(() => 0));
    expect(unwrap(await app.services.api.getSyncState()).progress.bytes).toBe(0);
  });
});
