import { describe, expect, it } from 'vitest';
import type { MyComment, SiteComment } from '../../electron/contract.ts';
import { changeable, commentThread } from '../../src/lib/comments.ts';

const site = (commentid: number, parentid: number | null = null): SiteComment => ({
  commentid,
  parentid,
  authorUserid: 7,
  author: 'Priya',
  date: 1_700_000_000 + commentid,
  textRendered: `<p>site ${commentid}</p>`,
});
const mine = (over: Partial<MyComment>): MyComment => ({
  id: 'a',
  guideid: 2,
  context: 'step',
  contextid: 30,
  parentid: null,
  text: 'mine',
  state: 'waiting',
  unsent: true,
  commentid: null,
  writtenAt: 1_800_000_000,
  editableUntil: null,
  ...over,
});
const where = { context: 'step' as const, contextid: 30 };

describe('a comment thread', () => {
  it('puts replies under what they answer and adds the technician’s waiting comments after the site’s', () => {
    const thread = commentThread([site(1), site(2, 1)], [mine({})], where, 'Sam');
    expect(thread.map((c) => c.key)).toEqual(['site-1', 'mine-a']);
    expect(thread[0]!.replies.map((c) => c.key)).toEqual(['site-2']);
    expect(thread[1]).toMatchObject({ author: 'Sam', text: 'mine', waiting: true, html: null });
  });

  it('shows a sent comment’s latest text over the site’s copy, and hides a deleted one', () => {
    const edited = mine({ state: 'sent', commentid: 1, text: 'changed', unsent: true });
    expect(commentThread([site(1)], [edited], where, 'Sam')).toEqual([
      expect.objectContaining({ key: 'site-1', text: 'changed', html: null, waiting: true }),
    ]);
    expect(commentThread([site(1)], [mine({ state: 'deleted', commentid: 1 })], where, 'Sam')).toEqual([]);
  });

  it('leaves out comments of another step', () => {
    expect(commentThread([], [mine({ contextid: 31 })], where, 'Sam')).toEqual([]);
  });

  it('may be changed until the site’s 5 minutes are over', () => {
    expect(changeable(mine({}), 2_000_000_000)).toBe(true);
    expect(changeable(mine({ state: 'sent', editableUntil: 1000 }), 999)).toBe(true);
    expect(changeable(mine({ state: 'sent', editableUntil: 1000 }), 1000)).toBe(false);
  });
});
