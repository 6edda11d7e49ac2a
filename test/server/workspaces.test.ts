import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/types.ts';
import type { RunningSite } from '../../server/site.ts';
import { getUserByEmail } from '../../server/users/repo.ts';
import { grantAccess, insertRootCategory, insertWorkspace } from '../../server/workspaces/repo.ts';
import { insertChildCategory, seedDocs, SEED_TIME, type DocsFixture } from './docs-seed.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { workspace } from './schemas.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause:
    "the seed's workspace endpoints, which iFixit's description lacks and the client never asks, and their refusals",
};

let site: RunningSite;
let docs: DocsFixture;
let admin: SignedIn;
let author: SignedIn;
let tech1: SignedIn;
let tech2: SignedIn;
let privateid: number;
let grantedid: number;
let twins: number[];

/** Besides the docs fixture: a private workspace, one granted to the crew, and two that share a display title. */
function seed(db: Db): void {
  docs = seedDocs(db);
  const admin = getUserByEmail(db, 'admin@demo.test')!.userid;
  privateid = insertRootCategory(db, 'Audit Files', SEED_TIME);
  insertWorkspace(db, privateid, 'private', admin, SEED_TIME);
  grantedid = insertRootCategory(db, 'Crew Notes', SEED_TIME);
  insertWorkspace(db, grantedid, 'private', admin, SEED_TIME);
  grantAccess(db, grantedid, { teamid: (db.prepare('SELECT teamid FROM teams').get() as { teamid: number }).teamid });
  twins = ['Twin A', 'Twin B'].map((title) => {
    const wikiid = insertRootCategory(db, title, SEED_TIME);
    db.prepare("UPDATE categories SET display_title = 'Twin' WHERE wikiid = ?").run(wikiid);
    insertWorkspace(db, wikiid, 'public', admin, SEED_TIME);
    return wikiid;
  });
}

beforeAll(async () => {
  site = await startTestSite({ seed, ...UNCHECKED });
  ({ admin, author, tech1, tech2 } = await signInAll(site));
});
afterAll(() => site.close());

interface Page {
  items: { data: { wikiid: number; wiki: { display_title: string } } }[];
  pageSize: number;
  nextPageCursor: string | null;
}

async function allPages(token: string | undefined, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const answer = await api<Page>(site, 'GET', '/workspaces', { token, query: { limit, nextPageCursor: cursor } });
    expect(answer.status).toBe(200);
    pages.push(answer.body);
    cursor = answer.body.nextPageCursor ?? undefined;
  } while (cursor && pages.length < 100);
  return pages;
}

const titlesOf = (pages: Page[]) => pages.flatMap((page) => page.items.map((item) => item.data.wiki.display_title));

describe('GET /workspaces', () => {
  it('pages by display_title then wikiid, the cursor naming the first item of the next page', async () => {
    const first = await api<Page>(site, 'GET', '/workspaces', { token: admin.token, query: { limit: 2 } });
    for (const item of first.body.items) expectShape(workspace, item.data);
    expect(first.body.pageSize).toBe(2);
    expect(titlesOf([first.body])).toEqual(['Audit Files', 'Crew Notes']);
    expect(first.body.nextPageCursor).toBe(`Line Maintenance|${docs.workspaceid}`);
    const pages = await allPages(admin.token, 2);
    expect(titlesOf(pages)).toEqual(['Audit Files', 'Crew Notes', 'Line Maintenance', 'Twin', 'Twin']);
    expect(pages.flatMap((page) => page.items.map((item) => item.data.wikiid)).slice(3)).toEqual(twins);
    expect(pages.at(-1)?.nextPageCursor).toBeNull();
  });

  it('gives the same order with limit 1 and everything with limit 200', async () => {
    const single = await allPages(admin.token, 1);
    expect(single.every((page) => page.items.length === 1)).toBe(true);
    const whole = await allPages(admin.token, 200);
    expect(whole).toHaveLength(1);
    expect(titlesOf(single)).toEqual(titlesOf(whole));
    expect((await api(site, 'GET', '/workspaces')).body.pageSize).toBe(20);
  });

  it('continues between two workspaces that share a display title', async () => {
    const answer = await api<Page>(site, 'GET', '/workspaces', {
      token: admin.token,
      query: { nextPageCursor: `Twin|${twins[1]}` },
    });
    expect(answer.body.items.map((item) => item.data.wikiid)).toEqual([twins[1]]);
  });

  it('answers an empty page past the end and refuses a malformed cursor', async () => {
    const past = await api(site, 'GET', '/workspaces', { token: admin.token, query: { nextPageCursor: 'zzz|1' } });
    expect(past.body).toEqual({ items: [], pageSize: 20, nextPageCursor: null });
    expectError(await api(site, 'GET', '/workspaces', { query: { nextPageCursor: 'no-bar' } }), 422, 'nextPageCursor');
    expectError(await api(site, 'GET', '/workspaces', { query: { nextPageCursor: 'Twin|x' } }), 422, 'nextPageCursor');
    expectError(await api(site, 'GET', '/workspaces', { query: { limit: 0 } }), 422, 'limit');
  });

  it('lists only the workspaces the caller may access', async () => {
    expect(titlesOf(await allPages(undefined, 200))).toEqual(['Line Maintenance', 'Twin', 'Twin']);
    expect(titlesOf(await allPages(tech1.token, 200))).toEqual(['Crew Notes', 'Line Maintenance', 'Twin', 'Twin']);
    expect(titlesOf(await allPages(author.token, 200))).toEqual(['Line Maintenance', 'Twin', 'Twin']);
  });
});

describe('GET /workspaces/{wikiid}', () => {
  it('answers one workspace with its category as the wiki and its owner as the user', async () => {
    const answer = await api(site, 'GET', `/workspaces/${docs.workspaceid}`);
    const body = expectShape(workspace, answer.body);
    expect(body).toMatchObject({
      wikiid: docs.workspaceid,
      status: 'enabled',
      privacyStatus: 'public',
      user: { userid: admin.userid },
    });
    expect(body.wiki).toMatchObject({ namespace: 'CATEGORY', title: 'Line Maintenance', ancestors: [] });
    expect(body.wiki.children).toEqual([expect.objectContaining({ wikiid: docs.childCategoryid, title: 'Conveyors' })]);
  });

  it('guards private workspaces: 401 anonymous, 403 without access, 404 when none', async () => {
    expectError(await api(site, 'GET', `/workspaces/${privateid}`), 401);
    expectError(await api(site, 'GET', `/workspaces/${privateid}`, { token: tech1.token }), 403);
    expect((await api(site, 'GET', `/workspaces/${privateid}`, { token: admin.token })).status).toBe(200);
    expect((await api(site, 'GET', `/workspaces/${grantedid}`, { token: tech2.token })).status).toBe(200);
    expectError(await api(site, 'GET', `/workspaces/${docs.plainCategoryid}`), 404);
    expectError(await api(site, 'GET', '/workspaces/9999'), 404);
  });
});

describe('POST /workspaces', () => {
  it('creates a workspace at the site root for an admin (200)', async () => {
    const answer = await api(site, 'POST', '/workspaces', {
      token: admin.token,
      json: { workspaceTitle: 'Paint Shop', accessStatus: 'private' },
    });
    expect(answer.status).toBe(200);
    const body = expectShape(workspace, answer.body);
    expect(body).toMatchObject({ privacyStatus: 'private', wiki: { title: 'Paint Shop', namespace: 'CATEGORY' } });
    expect((await api(site, 'GET', `/workspaces/${body.wikiid}`, { token: tech1.token })).status).toBe(403);
    const audit = (await call('GET', `${site.url}/__test/audit`, { query: { entity: 'workspace' } })).body;
    expect(audit.map((entry: { entity_id: string }) => entry.entity_id)).toContain(String(body.wikiid));
  });

  it('names the field it refuses and is for admins', async () => {
    const post = (json: unknown, token = admin.token) => api(site, 'POST', '/workspaces', { token, json });
    expectError(await post({ accessStatus: 'public' }), 422, 'workspaceTitle', 'missing_field');
    expectError(await post({ workspaceTitle: 'Yard' }), 422, 'accessStatus', 'missing_field');
    expectError(await post({ workspaceTitle: 'Yard', accessStatus: 'hidden' }), 422, 'accessStatus', 'invalid_value');
    expectError(await post({ workspaceTitle: 'compressors', accessStatus: 'public' }), 422, 'workspaceTitle');
    expectError(await post({ workspaceTitle: 'Yard', accessStatus: 'public' }, author.token), 403);
    expectError(
      await api(site, 'POST', '/workspaces', { json: { workspaceTitle: 'Yard', accessStatus: 'public' } }),
      401,
    );
  });
});

describe('POST /workspaces/convert/from-category/{wikiid}', () => {
  it('turns a nested category into a workspace at the site root', async () => {
    const nested = insertChildCategory(site.db, 'Hoists', docs.plainCategoryid);
    const answer = await api(site, 'POST', `/workspaces/convert/from-category/${nested}`, {
      token: admin.token,
      json: { accessStatus: 'public' },
    });
    expect(answer.status).toBe(200);
    expect(expectShape(workspace, answer.body)).toMatchObject({
      wikiid: nested,
      privacyStatus: 'public',
      wiki: { title: 'Hoists' },
    });
    expect(site.db.prepare('SELECT parentid FROM categories WHERE wikiid = ?').get(nested)).toEqual({ parentid: null });
  });

  it('refuses a workspace, an unknown category, a missing accessStatus and non-admins', async () => {
    const convert = (id: number, json: unknown, token = admin.token) =>
      api(site, 'POST', `/workspaces/convert/from-category/${id}`, { token, json });
    expectError(await convert(docs.workspaceid, { accessStatus: 'public' }), 422, 'wikiid');
    expectError(await convert(9999, { accessStatus: 'public' }), 404);
    expectError(await convert(docs.childCategoryid, {}), 422, 'accessStatus', 'missing_field');
    expectError(await convert(docs.childCategoryid, { accessStatus: 'public' }, tech1.token), 403);
  });
});
