import { beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { PASS, type Fault } from '../fault/proxy.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { overProxyForFile } from '../helpers/services.ts';
import { api, signIn } from '../server/helpers.ts';

// A comment the technician wrote, as the site answers its send: an answer about another comment (a faulty
// site, answers mixed up on the way; the fault proxy's rewrite) is not taken, and a send whose answer was
// lost is found among the page's comments as the new one, not as the same words written there last week.
const over = overProxyForFile(true);
let guide: GuideDetail;
let tech1 = 0;

beforeAll(async () => {
  tech1 = (await signIn(over.site, 'tech1')).userid;
  const [first] = await allLocalGuides(over.app.services.api);
  guide = unwrap(await over.app.services.api.getGuide(first!.guideid));
});

/** A comment written on a step of the guide, and the outbox drained. */
async function written(stepid: number, text: string) {
  const { api: app_ } = over.app.services;
  const comment = unwrap(await app_.writeComment({ guideid: guide.guideid, context: 'step', contextid: stepid, text }));
  for (let i = 0; i < 10 && unwrap(await app_.flushOutbox()).pending > 0; i++);
  expect(unwrap(await app_.getOutbox()).summary).toMatchObject({ pending: 0, failed: 0 });
  const mine = unwrap(await app_.guideComments(guide.guideid)).mine.find((c) => c.id === comment.id)!;
  const onSite = over.site.db
    .prepare("SELECT commentid FROM comments WHERE context = 'step' AND contextid = ? AND userid = ? AND text_raw = ?")
    .all(stepid, tech1, text) as { commentid: number }[];
  return { mine, onSite: onSite.map((c) => c.commentid) };
}

/** Its first send answered by `fault`. */
function firstPost(fault: Fault): () => boolean {
  let done = false;
  over.proxy.setSchedule((request) => {
    if (done || request.method !== 'POST' || !request.path.startsWith('/api/2.0/comments/')) return PASS;
    done = true;
    return fault;
  });
  return () => done;
}

describe('a comment sent to the site', () => {
  it('answered with another comment is not taken: its own is found, and is the one it changes', async () => {
    const [step] = guide.steps.filter((s) => s.guideid === guide.guideid);
    const other = over.site.db.prepare('SELECT commentid FROM comments WHERE userid != ? LIMIT 1').get(tech1) as {
      commentid: number;
    };
    const theirs = (await api(over.site, 'GET', `/comments/${other.commentid}`)).body;
    const answered = firstPost({ kind: 'rewrite', body: () => JSON.stringify(theirs) });
    try {
      const { mine, onSite } = await written(step!.stepid, 'Seal on the drain valve replaced.');
      expect(answered()).toBe(true);
      expect(onSite).toHaveLength(1);
      expect(mine.commentid).toBe(onSite[0]);
    } finally {
      over.proxy.passAll();
    }
  });

  it('whose answer was lost is the new one, not the same words written on the step last week', async () => {
    const [, step] = guide.steps.filter((s) => s.guideid === guide.guideid);
    const lastWeek = await api(over.site, 'POST', `/comments/step/${step!.stepid}`, {
      token: (await signIn(over.site, 'tech1')).token,
      json: { text: 'Checked, all tight.' },
    });
    expect(lastWeek.status).toBe(201);
    const old = (lastWeek.body as { commentid: number }).commentid;
    over.site.db.prepare('UPDATE comments SET date = date - 7 * 86400 WHERE commentid = ?').run(old);
    const dropped = firstPost({ kind: 'dropResponse' });
    try {
      const { mine, onSite } = await written(step!.stepid, 'Checked, all tight.');
      expect(dropped()).toBe(true);
      // Sent once: the lost answer's comment is found, not sent again.
      expect(onSite).toHaveLength(2);
      expect(mine.commentid).toBe(Math.max(...onSite));
      expect(mine.commentid).not.toBe(old);
    } finally {
      over.proxy.passAll();
    }
  });
});
