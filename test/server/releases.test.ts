import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_CHANGE } from '../../server/demo/change-guide.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, expectError, expectShape, signIn, startTestSite } from './helpers.ts';

// Issue 30: Dozuki's guide releases (dozuki-api-2.0.md §2.6), which iFixit's API has not, and the demo's
// page that publishes a changed guide with a release note.

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;

/** The release object as dozuki-api-2.0.md §2.6 names its fields. */
const release = z
  .object({
    releaseid: z.number().int(),
    guideid: z.number().int(),
    langid: z.string(),
    revisionid: z.number().int(),
    user: z.object({ userid: z.number().int(), username: z.string() }).loose().nullable(),
    status: z.string(),
    title: z.string(),
    init_date: z.number().int(),
    release_date: z.number().int(),
    notes: z.string(),
    type: z.string(),
    href: z.string(),
    version: z.string().nullable(),
  })
  .strict();

let site: RunningSite;
let ifixit: RunningSite;
beforeAll(async () => {
  [site, ifixit] = await Promise.all([startTestSite({ demo: true }), startTestSite({ demo: true, dialect: 'ifixit' })]);
});
afterAll(async () => {
  await Promise.all([site?.close(), ifixit?.close()]);
});

describe('GET /guides/{guideid}/releases', () => {
  it("lists a demo guide's release of its current revision, as the reference's release object", async () => {
    const guideid = id('compressor-belt');
    const guide = (await api(site, 'GET', `/guides/${guideid}`)).body as { revisionid: number };
    const answer = await api(site, 'GET', `/guides/${guideid}/releases`);
    expect(answer.status, answer.text).toBe(200);
    const list = expectShape(z.array(release), answer.body);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ guideid, revisionid: guide.revisionid, title: 'First release' });
  });

  it('is seen as the guide itself is: a private guide is not shown without a token, a missing one is 404', async () => {
    expectError(await api(site, 'GET', `/guides/${id('mig-setup')}/releases`), 401);
    const admin = await signIn(site, 'admin');
    expect((await api(site, 'GET', `/guides/${id('mig-setup')}/releases`, { token: admin.token })).status).toBe(200);
    expectError(await api(site, 'GET', '/guides/999999/releases'), 404);
  });

  it('carries a release note of a revision made through the guide edit, newest first', async () => {
    const guideid = id('compressor-belt');
    const author = await signIn(site, 'author');
    const current = (await api(site, 'GET', `/guides/${guideid}`)).body as { revisionid: number };
    const patched = await api(site, 'PATCH', `/guides/${guideid}`, {
      token: author.token,
      query: { revisionid: current.revisionid },
      json: { summary: 'Belt tension checked twice.' },
    });
    expect(patched.status, patched.text).toBe(200);
    const revisionid = (patched.body as { revisionid: number }).revisionid;
    const json = { guideid, title: 'Tension', notes: 'The belt is checked twice now.' };
    const made = await api(site, 'POST', '/guides/releases', { token: author.token, json });
    expect(made.status, made.text).toBe(201);
    expect(expectShape(release, made.body)).toMatchObject({ revisionid, title: 'Tension', notes: json.notes });
    const list = (await api(site, 'GET', `/guides/${guideid}/releases`)).body as { revisionid: number }[];
    expect(list.map((r) => r.revisionid)).toEqual([revisionid, current.revisionid]);
  });

  it('takes a release note only from someone who may edit the guide', async () => {
    const tech1 = await signIn(site, 'tech1');
    const json = { guideid: id('compressor-belt'), title: 'Mine', notes: '' };
    expectError(await api(site, 'POST', '/guides/releases', { token: tech1.token, json }), 403);
    expectError(await api(site, 'POST', '/guides/releases', { json }), 401);
  });

  it('is not offered by an iFixit-dialect site: 404', async () => {
    expect((await api(ifixit, 'GET', `/guides/${id('compressor-belt')}/releases`)).status).toBe(404);
    const author = await signIn(ifixit, 'author');
    const json = { guideid: id('compressor-belt'), title: 'None here' };
    expect((await api(ifixit, 'POST', '/guides/releases', { token: author.token, json })).status).toBe(404);
  });
});

describe('the demo page that changes a guide', () => {
  it('publishes a new revision with step 3 reworded, a step added and a release note, with no script', async () => {
    const guideid = id('lathe-chuck');
    const before = (await api(site, 'GET', `/guides/${guideid}`)).body as GuideJson;
    const page = await fetch(`${site.url}/demo/change`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`action="/demo/change/${guideid}"`);

    const pressed = await fetch(`${site.url}/demo/change/${guideid}`, { method: 'POST', redirect: 'manual' });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(`/demo/change?changed=${guideid}`);

    const after = (await api(site, 'GET', `/guides/${guideid}`)).body as GuideJson;
    expect(after.revisionid).toBeGreaterThan(before.revisionid);
    // Its own steps (a prerequisite's steps open the guide's answer).
    const [was, now] = [before, after].map((g) => g.steps.filter((step) => step.guideid === guideid));
    expect(now).toHaveLength(was!.length + 1);
    expect(now![2]!.lines[0]!.text_raw).toBe(DEMO_CHANGE.reworded);
    const rest = (lines: { text_raw: string }[]) => lines.slice(1).map((line) => line.text_raw);
    expect(rest(now![2]!.lines)).toEqual(rest(was![2]!.lines));
    expect(now![2]!.stepid).toBe(was![2]!.stepid);
    expect(now!.at(-1)!.title).toBe(DEMO_CHANGE.step.title);
    const releases = (await api(site, 'GET', `/guides/${guideid}/releases`)).body as { revisionid: number }[];
    expect(releases[0]).toMatchObject({ revisionid: after.revisionid, notes: DEMO_CHANGE.notes(3) });
  });

  it('is served only by the demo site', async () => {
    const plain = await startTestSite();
    try {
      expect((await fetch(`${plain.url}/demo/change`)).status).toBe(404);
      expect((await fetch(`${plain.url}/demo/change/1`, { method: 'POST' })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

interface GuideJson {
  revisionid: number;
  steps: { guideid: number; stepid: number; title: string; lines: { text_raw: string }[] }[];
}
