import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_COMMENTS } from '../../server/demo/site-data.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { comment, comments } from './content-schemas.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { checkPaging } from './paging-checks.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = { uncheckedBecause: 'the refusals of comments: bad paging, contexts and texts, on purpose' };

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const T0 = 1_800_000_000;

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
beforeAll(async () => {
  site = await startTestSite({ demo: true, ...UNCHECKED });
  who = await signInAll(site);
});
afterAll(() => site.close());

describe('GET /comments', () => {
  it('lists comments by commentid, paged, filterable by context', async () => {
    const get = (query: Record<string, string | number | undefined>) => api(site, 'GET', '/comments', { query });
    const all = await checkPaging(get, { key: (c: { commentid: number }) => c.commentid, total: DEMO_COMMENTS.length });
    expectShape(comments, all);
    const onSteps = (await get({ context: 'step' })).body as { context: string }[];
    expect(onSteps.length).toBe(DEMO_COMMENTS.filter((c) => c.step !== undefined).length);
    const onBelt = (await get({ context: 'guide', contextid: id('compressor-belt') })).body;
    expect(onBelt.map((c: { parentid: number | null }) => c.parentid)).toEqual([null, onBelt[0].commentid]);
    expectError(await get({ context: 'forum' }), 422, 'context');
  });

  it('GET /comments/{commentid}', async () => {
    const one = await api(site, 'GET', '/comments/1');
    expect(expectShape(comment, one.body)).toMatchObject({
      commentid: 1,
      context: 'guide',
      author: { userid: who.tech1.userid },
    });
    expectError(await api(site, 'GET', '/comments/999'), 404);
  });
});

describe('POST /comments/{context}/{contextid}', () => {
  it('posts on a guide and on a step; they show in the full guide', async () => {
    await call('POST', `${site.url}/__test/clock`, { json: { now: T0 } });
    const onGuide = await api(site, 'POST', `/comments/guide/${id('lathe-gib')}`, {
      token: who.tech2.token,
      json: { text: 'Gib was **very** loose on lathe 2.' },
    });
    expect(onGuide.status, onGuide.text).toBe(201);
    expect(expectShape(comment, onGuide.body)).toMatchObject({
      context: 'guide',
      contextid: id('lathe-gib'),
      date: T0,
      text_rendered: 'Gib was <strong>very</strong> loose on lathe 2.',
    });
    const guide = (await api(site, 'GET', `/guides/${id('lathe-gib')}`)).body;
    const stepid = guide.steps[2].stepid;
    const onStep = await api(site, 'POST', `/comments/step/${stepid}`, {
      token: who.tech1.token,
      json: { text: 'Use the 0.0001 in indicator.' },
    });
    expect(onStep.status).toBe(201);
    const reply = await api(site, 'POST', `/comments/step/${stepid}`, {
      token: who.author.token,
      json: { text: 'Agreed.', parentid: onStep.body.commentid },
    });
    expect(reply.body.parentid).toBe(onStep.body.commentid);
    const after = (await api(site, 'GET', `/guides/${id('lathe-gib')}`)).body;
    expect(after.comments.map((c: { commentid: number }) => c.commentid)).toEqual([onGuide.body.commentid]);
    expect(after.steps[2].comments.map((c: { text_raw: string }) => c.text_raw)).toEqual([
      'Use the 0.0001 in indicator.',
      'Agreed.',
    ]);
    expect(new URL(after.steps[2].comments[0].author.url).origin).toBe(site.url);
  });

  it('refuses anonymous callers, unknown targets, empty text and foreign parents', async () => {
    expectError(await api(site, 'POST', `/comments/guide/${id('lockout')}`, { json: { text: 'x' } }), 401);
    expectError(await api(site, 'POST', '/comments/guide/9999', { token: who.tech1.token, json: { text: 'x' } }), 404);
    expectError(await api(site, 'POST', '/comments/step/999999', { token: who.tech1.token, json: { text: 'x' } }), 404);
    expectError(await api(site, 'POST', '/comments/forum/1', { token: who.tech1.token, json: { text: 'x' } }), 404);
    expectError(
      await api(site, 'POST', `/comments/guide/${id('mig-setup')}`, { token: who.tech1.token, json: { text: 'x' } }),
      403,
    );
    expectError(
      await api(site, 'POST', `/comments/guide/${id('lockout')}`, { token: who.tech1.token, json: { text: '  ' } }),
      422,
      'text',
    );
    expectError(
      await api(site, 'POST', `/comments/guide/${id('lockout')}`, { token: who.tech1.token, json: {} }),
      422,
      'text',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', `/comments/guide/${id('lockout')}`, {
        token: who.tech1.token,
        json: { text: 'x', parentid: 1 },
      }),
      422,
      'parentid',
    );
    const onWiki = await api(site, 'POST', '/comments/wiki/1', {
      token: who.tech1.token,
      json: { text: 'Where is the spare compressor?' },
    });
    expect(onWiki.status).toBe(201);
  });

  it('lets the owner edit within five minutes and delete', async () => {
    await call('POST', `${site.url}/__test/clock`, { json: { now: T0 } });
    const posted = (
      await api(site, 'POST', `/comments/guide/${id('lockout')}`, { token: who.tech1.token, json: { text: 'Typo' } })
    ).body;
    expectError(
      await api(site, 'PATCH', `/comments/${posted.commentid}`, { token: who.tech2.token, json: { text: 'x' } }),
      403,
    );
    const edited = await api(site, 'PATCH', `/comments/${posted.commentid}`, {
      token: who.tech1.token,
      json: { text: 'Fixed' },
    });
    expect(edited.body.text_raw).toBe('Fixed');
    await call('POST', `${site.url}/__test/clock`, { json: { now: T0 + 301 } });
    expectError(
      await api(site, 'PATCH', `/comments/${posted.commentid}`, { token: who.tech1.token, json: { text: 'Late' } }),
      403,
    );
    expectError(await api(site, 'DELETE', `/comments/${posted.commentid}`, { token: who.tech2.token }), 403);
    expect((await api(site, 'DELETE', `/comments/${posted.commentid}`, { token: who.tech1.token })).status).toBe(204);
    expectError(await api(site, 'GET', `/comments/${posted.commentid}`), 404);
  });

  it("never gives a deleted comment's id to a new one: a repeated DELETE cannot remove the next comment", async () => {
    const post = async (text: string) =>
      (await api(site, 'POST', `/comments/guide/${id('lockout')}`, { token: who.tech1.token, json: { text } })).body
        .commentid as number;
    const first = await post('Deleted right away');
    expect((await api(site, 'DELETE', `/comments/${first}`, { token: who.tech1.token })).status).toBe(204);
    const next = await post('Kept');
    expect(next).toBeGreaterThan(first);
    // The repeat of the first DELETE (its answer lost) finds nothing, and the new comment stays.
    expectError(await api(site, 'DELETE', `/comments/${first}`, { token: who.tech1.token }), 404);
    expect((await api(site, 'GET', `/comments/${next}`)).body.text_raw).toBe('Kept');
  });
});
