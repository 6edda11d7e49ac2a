import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppApi } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { allLocalGuides, flushUntilQuiet, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { api as siteApi, signIn, type SignedIn } from '../server/helpers.ts';

// iFixit lists a technician's favourites and completions in the site's own language only: "favorited guides
// with no translation in that language are excluded", and so are completions (its OpenAPI description of
// GET /user/favorites/guides and GET /user/completions). A guide written in German on an English site was
// favourited and marked done here, the site took both, and the next sync took both marks off this computer,
// and the favourite out of what is kept whole. Against the reference server in iFixit's dialect, over HTTP.

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const GERMAN = id('lathe-chuck');
const ENGLISH = id('bandsaw-guides');

let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let api: AppApi;
let tech1: SignedIn;

const marked = (table: 'favorites' | 'completions', guideid: number): boolean =>
  site.db.prepare(`SELECT 1 FROM ${table} WHERE userid = ? AND guideid = ?`).get(tech1.userid, guideid) !== undefined;

beforeAll(async () => {
  site = await startDemoSite({ dialect: 'ifixit' });
  // Written in German, with no English translation: iFixit's lists of marks leave it out.
  site.db.prepare("UPDATE guides SET locale = 'de' WHERE guideid = ?").run(GERMAN);
  tech1 = await signIn(site, 'tech1');
  app = makeServices();
  api = app.services.api;
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await api.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
  unwrap(await api.setOfflineScope({ mode: 'selected', categories: [], guideids: [] }));
  expect(unwrap(await api.syncNow()).error).toBeNull();
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe("marks of a guide in another language than the site's", () => {
  it('stay after a sync, and the favourite stays kept whole', async () => {
    for (const guideid of [GERMAN, ENGLISH]) {
      unwrap(await api.setGuideMark(guideid, 'favorite', true));
      unwrap(await api.setGuideMark(guideid, 'completed', true));
    }
    await flushUntilQuiet(api);
    expect([marked('favorites', GERMAN), marked('completions', GERMAN)]).toEqual([true, true]);
    // The site took them, and leaves the German guide out of both lists.
    const favorites = (await siteApi(site, 'GET', '/user/favorites/guides', { token: tech1.token })).body as {
      guide: { guideid: number };
    }[];
    expect(favorites.map((entry) => entry.guide.guideid)).not.toContain(GERMAN);

    expect(unwrap(await api.syncNow()).error).toBeNull();
    expect(unwrap(await api.getGuideMarks(GERMAN))).toMatchObject({ favorite: true, completed: true });
    expect(unwrap(await api.listFavoriteGuideIds())).toContain(GERMAN);
    expect((await allLocalGuides(api)).find((g) => g.guideid === GERMAN)?.offline).toBe('full');
  });

  it('go when the site took them off, as those in its own language do', async () => {
    const taken = [`/user/favorites/guides/${ENGLISH}`, `/guides/${ENGLISH}/completed`].map(
      async (path) => (await siteApi(site, 'DELETE', path, { token: tech1.token })).status,
    );
    expect(await Promise.all(taken)).toEqual([204, 204]);
    expect(unwrap(await api.syncNow()).error).toBeNull();
    expect(unwrap(await api.getGuideMarks(ENGLISH))).toMatchObject({ favorite: false, completed: false });
    expect(unwrap(await api.getGuideMarks(GERMAN))).toMatchObject({ favorite: true, completed: true });
  });
});
