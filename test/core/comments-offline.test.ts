import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, onPaths, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 30, acceptance 2 (the core's part): the site's comments read offline with their authors, times
// and replies; a comment written with no network on step 3 reaches the real site once, under its author,
// once the site answers again, in the form it had when it left; a site without comments offers none.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let belt: GuideDetail;

type SiteCommentJson = { commentid: number; text_raw: string; author: { userid: number; username: string } };

/** The comments on a step of the belt guide, as the site has them now. */
async function stepComments(stepid: number): Promise<SiteCommentJson[]> {
  const guide = (await api(site, 'GET', `/guides/${belt.guideid}`)).body as {
    steps: { stepid: number; comments: SiteCommentJson[] }[];
  };
  return guide.steps.find((s) => s.stepid === stepid)!.comments;
}

async function drain(): Promise<void> {
  let summary = unwrap(await app.services.api.flushOutbox());
  for (let i = 0; i < 10 && summary.pending + summary.inFlight > 0; i++)
    summary = unwrap(await app.services.api.flushOutbox());
  expect(summary).toMatchObject({ pending: 0, inFlight: 0, failed: 0 });
}

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  app = makeServices();
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  for (const { guideid } of await allLocalGuides(app.services.api)) {
    const detail = unwrap(await app.services.api.getGuide(guideid));
    if ((detail.comments ?? []).some((c) => c.parentid !== null)) belt = detail;
  }
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

describe('comments offline', () => {
  it("shows the site's comments with no network: author, time and replies", async () => {
    proxy.setSchedule(always({ kind: 'reset' }));
    const detail = unwrap(await app.services.api.getGuide(belt.guideid));
    const [first, reply] = detail.comments!;
    expect(first).toMatchObject({
      author: DEMO_ACCOUNTS.tech1.username,
      parentid: null,
      textRendered: expect.stringContaining('AX51'),
    });
    expect(first!.date).toBeGreaterThan(0);
    expect(reply).toMatchObject({ parentid: first!.commentid, author: DEMO_ACCOUNTS.author.username });
    const onStep = detail.steps.flatMap((s) => s.comments ?? []);
    expect(onStep.map((c) => c.author)).toContain(DEMO_ACCOUNTS.tech2.username);
    proxy.passAll();
  });

  it('sends a comment written offline on step 3 once, under its author, in its edited form only', async () => {
    proxy.setSchedule(always({ kind: 'reset' }));
    // The laptop knows it is off the network (the shell's hint): the first comment never leaves, so its
    // edit is folded into it, whatever an earlier test left the watch of the site thinking.
    app.services.setNetworkHint(false);
    // The guide's own step 3 (its prerequisites' steps come first in the stored guide).
    const step3 = belt.steps.filter((s) => s.guideid === belt.guideid)[2]!;
    const before = await stepComments(step3.stepid);
    const written = unwrap(
      await app.services.api.writeComment({
        guideid: belt.guideid,
        context: 'step',
        contextid: step3.stepid,
        text: 'The torque on this step reads 25 Nm; the plate says 35.',
      }),
    );
    expect(written).toMatchObject({ state: 'waiting', unsent: true, commentid: null });
    // Not sent while the site does not answer: still waiting, still one action.
    await app.services.api.flushOutbox();
    const edited = unwrap(
      await app.services.api.editComment({ id: written.id, text: 'The plate on the east unit says 35 Nm, not 25.' }),
    );
    expect(edited).toMatchObject({ state: 'waiting', text: 'The plate on the east unit says 35 Nm, not 25.' });
    const withdrawn = unwrap(
      await app.services.api.writeComment({
        guideid: belt.guideid,
        context: 'guide',
        contextid: belt.guideid,
        text: 'Written by mistake, deleted before it left.',
      }),
    );
    // Back on a network where the site answers, but resets every comment posted: tried and reset, the
    // comment may have reached the site, so its delete is queued after it, not dropped.
    proxy.setSchedule(onPaths(/\/comments\//, always({ kind: 'reset' }), 'POST'));
    app.services.setNetworkHint(true);
    await app.services.api.flushOutbox();
    expect(unwrap(await app.services.api.deleteComment(withdrawn.id))).toMatchObject({ state: 'deleted' });
    const queued = unwrap(await app.services.api.getOutbox()).actions;
    expect(queued.map((a) => a.kind).sort()).toEqual(['commentDelete', 'commentPost', 'commentPost']);

    proxy.passAll();
    await drain();
    const after = await stepComments(step3.stepid);
    const added = after.filter((c) => !before.some((b) => b.commentid === c.commentid));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      text_raw: 'The plate on the east unit says 35 Nm, not 25.',
      author: { userid: (await signIn(site, 'tech1')).userid },
    });
    // One POST (the withdrawn comment never reached the site), no change after it.
    const applied = await audit(site, 'comment');
    expect(applied.map((a) => a.method)).toEqual(['POST']);
    expect(unwrap(await app.services.api.getGuide(belt.guideid)).comments!.map((c) => c.textRendered)).not.toContain(
      'Written by mistake, deleted before it left.',
    );
    const mine = unwrap(await app.services.api.guideComments(belt.guideid)).mine.filter((c) => c.state !== 'deleted');
    expect(mine).toEqual([expect.objectContaining({ state: 'sent', unsent: false, commentid: added[0]!.commentid })]);
    expect(mine[0]!.editableUntil).toBeGreaterThan(Math.floor(Date.now() / 1000));
  });

  it("changes and deletes a sent comment within the site's 5 minutes", async () => {
    const [mine] = unwrap(await app.services.api.guideComments(belt.guideid)).mine.filter((c) => c.state === 'sent');
    proxy.setSchedule(always({ kind: 'reset' }));
    unwrap(await app.services.api.editComment({ id: mine!.id, text: 'The plate says 35 Nm. Fixed on the east unit.' }));
    proxy.passAll();
    await drain();
    const onSite = (await api(site, 'GET', `/comments/${mine!.commentid}`)).body as SiteCommentJson;
    expect(onSite.text_raw).toBe('The plate says 35 Nm. Fixed on the east unit.');
    expect(unwrap(await app.services.api.deleteComment(mine!.id))).toMatchObject({ state: 'deleted', unsent: true });
    await drain();
    expect((await api(site, 'GET', `/comments/${mine!.commentid}`)).status).toBe(404);
    expect((await audit(site, 'comment')).map((a) => a.method)).toEqual(['POST', 'PATCH', 'DELETE']);
  });

  it('refuses a comment the site would refuse, in plain words, and queues nothing', async () => {
    const refused = await app.services.api.writeComment({
      guideid: belt.guideid,
      context: 'guide',
      contextid: belt.guideid,
      text: 'Too short',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/12/) },
    });
    expect(unwrap(await app.services.api.getOutbox()).actions).toEqual([]);
  });
});

describe('a site without comments', () => {
  it('offers none: nothing shown, nothing written', async () => {
    const bare = await startDemoSite({ without: ['comments'] });
    const other = makeServices();
    try {
      const { email, password } = DEMO_ACCOUNTS.tech2;
      unwrap(await other.services.api.signIn({ siteUrl: bare.url, email, password }));
      expect(unwrap(await other.services.api.syncNow()).status).toBe('complete');
      const [guide] = await allLocalGuides(other.services.api);
      expect(unwrap(await other.services.api.guideComments(guide!.guideid))).toEqual({ offered: false, mine: [] });
      const refused = await other.services.api.writeComment({
        guideid: guide!.guideid,
        context: 'guide',
        contextid: guide!.guideid,
        text: 'Nobody can read this here.',
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(unwrap(await other.services.api.getOutbox()).actions).toEqual([]);
    } finally {
      await other.dispose();
      await bare.close();
    }
  });
});
