import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail, SiteComment } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_APP_ID } from '../../server/http/dialects.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, onPaths, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, MALFORMED_ON_PURPOSE, signIn, startTestSite } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// A site that speaks as iFixit's OpenAPI description says: a guide's comments (and a step's) are the
// top-level ones, each carrying its replies in `replies` ("present only on top-level comments"). The
// replies of colleagues are read and kept for offline reading, under the comment they answer; and a reply
// sent with no answer back is found among them, not posted twice.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let guide: GuideDetail;

type Threaded = { commentid: number; parentid: number | null; replies?: Threaded[] };

beforeAll(async () => {
  site = await startTestSite({ demo: true, dialect: 'ifixit' });
  proxy = await startFaultProxy({ target: { port: site.port } });
  app = makeServices();
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password, appId: DEMO_APP_ID }));
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  for (const { guideid } of await allLocalGuides(app.services.api)) {
    const answer = (await api(site, 'GET', `/guides/${guideid}`)).body as { comments: Threaded[] };
    if (answer.comments.some((c) => (c.replies ?? []).length > 0))
      guide = unwrap(await app.services.api.getGuide(guideid));
  }
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('comments of an iFixit-dialect site', () => {
  it('nests replies in the site: none at the top level, each under its comment', async () => {
    const answer = (await api(site, 'GET', `/guides/${guide.guideid}`)).body as { comments: Threaded[] };
    expect(answer.comments.every((c) => c.parentid === null)).toBe(true);
    const replies = answer.comments.flatMap((c) => c.replies ?? []);
    expect(replies.length).toBeGreaterThan(0);
    for (const c of answer.comments) for (const r of c.replies ?? []) expect(r.parentid).toBe(c.commentid);
  });

  it("keeps colleagues' replies for offline reading, under the comment they answer", async () => {
    proxy.setSchedule(always({ kind: 'reset' }));
    const detail = unwrap(await app.services.api.getGuide(guide.guideid));
    proxy.passAll();
    const answer = (await api(site, 'GET', `/guides/${guide.guideid}`)).body as { comments: Threaded[] };
    const expected = answer.comments.flatMap((c) => [c.commentid, ...(c.replies ?? []).map((r) => r.commentid)]);
    const kept = (detail.comments ?? []) as SiteComment[];
    expect(kept.map((c) => c.commentid).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    const reply = kept.find((c) => c.parentid !== null)!;
    expect(reply.author).toBe(DEMO_ACCOUNTS.author.username);
    expect(kept.find((c) => c.commentid === reply.parentid)!.parentid).toBeNull();
  });

  it('sends a reply whose answer was lost once: it is found among the nested replies', async () => {
    const parent = (guide.comments ?? []).find((c) => c.parentid === null)!;
    const before = (await audit(site, 'comment')).length;
    // The POST reaches the site and is applied; its answer never comes back (the connection is reset).
    proxy.setSchedule(onPaths(/\/comments\//, always({ kind: 'dropResponse' }), 'POST'));
    unwrap(
      await app.services.api.writeComment({
        guideid: guide.guideid,
        context: 'guide',
        contextid: guide.guideid,
        parentid: parent.commentid,
        text: 'Same here on the west unit: AX51 fits.',
      }),
    );
    await app.services.api.flushOutbox();
    proxy.passAll();
    let summary = unwrap(await app.services.api.flushOutbox());
    for (let i = 0; i < 10 && summary.pending + summary.inFlight > 0; i++)
      summary = unwrap(await app.services.api.flushOutbox());
    expect(summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
    const posted = (await audit(site, 'comment')).slice(before).filter((a) => a.method === 'POST');
    expect(posted).toHaveLength(1);
  });

  describe('a comment the site refuses for its length', () => {
    // Refused as it is written, the words kept in the form, not queued for the site to refuse at replay hours later
    // ("1 action failed", the comments after it held behind it). Each text is first shown refused by the site.
    const cases = [
      // 13 UTF-16 units, 8 characters: the site counts characters.
      {
        what: 'too short',
        text: 'OK \u{1F44D}\u{1F44D}\u{1F44D}\u{1F44D}\u{1F44D}',
        said: /at least 12 characters: add 4 more/,
      },
      { what: 'too long', text: `Belt: ${'x'.repeat(4091)}`, said: /at most 4096 characters.*has 4097, remove 1/ },
    ];
    for (const { what, text, said } of cases)
      it(`refuses one ${what} as it is written, and queues nothing`, async () => {
        const { token } = await signIn(site, 'tech1');
        const onSite = await api(site, 'POST', `/comments/guide/${guide.guideid}`, {
          token,
          json: { text },
          headers: MALFORMED_ON_PURPOSE,
        });
        expect({ status: onSite.status, body: onSite.body }).toMatchObject({ status: 422, body: { error: true } });
        const before = unwrap(await app.services.api.getOutbox()).actions.length;
        const written = await app.services.api.writeComment({
          guideid: guide.guideid,
          context: 'guide',
          contextid: guide.guideid,
          text,
        });
        expect(written).toMatchObject({
          ok: false,
          error: { code: 'invalid_input', message: expect.stringMatching(said) },
        });
        expect(unwrap(await app.services.api.getOutbox()).actions).toHaveLength(before);
        expect(unwrap(await app.services.api.guideComments(guide.guideid)).mine.some((c) => c.text === text)).toBe(
          false,
        );
      });
  });
});
