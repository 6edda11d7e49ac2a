import { z } from 'zod';
import { deleteComment, guideCommentsOnSite, patchComment, postComment } from '../api/comments-api.ts';
import { classify } from '../api/failure.ts';
import type { CommentsRepo } from '../db/repos/comments-repo.ts';
import type { OutboxRow } from '../db/repos/outbox-repo.ts';
import { defineAction } from '../outbox/action-kind.ts';
import { missingHere } from '../outbox/replay-context.ts';
import { chainOf } from '../db/chains.ts';

const commentChainOf = (row: OutboxRow) => chainOf(row.chain);

/** What the comment kinds replay with, beside the outbox's context (comments-outbox.ts registers them). */
export interface CommentReplayDeps {
  comments: CommentsRepo;
  /** The site's userid of a technician of this computer: whose comment to look for after a lost answer. */
  useridOf: (technician: number) => number | null;
}

/**
 * The text goes with the send, so an edit before it leaves rewrites it; `tried`: texts an earlier send that
 * may have landed went with (a lost answer is looked for by any of them).
 */
export const commentPostPayload = z.object({
  commentId: z.string().min(1),
  text: z.string().min(1),
  tried: z.array(z.string()).optional(),
});
export const commentEditPayload = z.object({ commentId: z.string().min(1), text: z.string().min(1) });
export const commentDeletePayload = z.object({ commentId: z.string().min(1) });
type PostPayload = z.infer<typeof commentPostPayload>;

/** The payload as stored now: an edit may have rewritten it while the runner was taking the action. */
function latest<P>(stored: OutboxRow | undefined, schema: z.ZodType<P>, read: P): P {
  if (!stored) return read;
  try {
    const now = schema.safeParse(JSON.parse(stored.payload));
    return now.success ? now.data : read;
  } catch {
    return read;
  }
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * `POST /comments/{context}/{contextid}` is not idempotent. When an earlier attempt may have landed (sent,
 * no answer), the guide's comments are read first and the newest by this author on this page, in the same
 * thread, with a text it was sent with, taken after it was written and not known here, is taken as ours
 * (then changed to the text it has now, if it differs).
 * A comment deleted meanwhile is not sent at all: only looked for, so its delete can follow.
 */
export const commentPostAction = defineAction<PostPayload, CommentReplayDeps>(
  'commentPost',
  commentPostPayload,
  async (ctx, row, read) => {
    const stored = ctx.outbox.get(row.id);
    const comment = ctx.comments.get(read.commentId);
    // Withdrawn by its author before it left (comments-service.ts drops both together).
    if (!stored && !comment) return { type: 'done' };
    if (!comment) return missingHere('comment');
    const payload = latest(stored, commentPostPayload, read);
    if (comment.commentid !== null) {
      ctx.outbox.remove(row.id);
      return { type: 'done' };
    }
    const userid = ctx.useridOf(ctx.technician);
    if (row.unknownOutcome && userid !== null) {
      const texts = new Set([payload.text, ...(payload.tried ?? [])].map((t) => t.trim()));
      // The newest that fits, and none the site took before this comment was written (a day's leeway for
      // a clock not yet learned): "Checked." written on the same step last week is another comment.
      const landed = (await guideCommentsOnSite(ctx.transport, comment.guideid))
        .filter(
          (c) =>
            c.context === comment.context &&
            c.contextid === comment.contextid &&
            c.parentid === comment.parentid &&
            c.userid === userid &&
            (c.date === null || c.date >= row.actedAt - DAY_SECONDS) &&
            texts.has(c.text.trim()) &&
            !ctx.comments.knows(c.commentid),
        )
        .sort((a, b) => b.commentid - a.commentid)[0];
      if (landed) {
        ctx.transaction(() => {
          ctx.comments.posted(comment.id, landed.commentid, landed.date ?? ctx.now());
          ctx.outbox.remove(row.id);
          if (landed.text.trim() !== payload.text.trim() && !comment.deleted) {
            const at = { chain: commentChainOf(row), actedAt: ctx.now(), technician: ctx.technician };
            ctx.enqueue(commentEditAction, { commentId: comment.id, text: payload.text }, at);
          }
        });
        return { type: 'done' };
      }
    }
    if (comment.deleted) {
      ctx.outbox.remove(row.id);
      return { type: 'done' };
    }
    const posted = await postComment(ctx.transport, { ...comment, text: payload.text }, userid);
    ctx.transaction(() => {
      ctx.comments.posted(comment.id, posted.commentid, posted.date ?? ctx.now());
      ctx.outbox.remove(row.id);
    });
    return { type: 'done' };
  },
  { describe: () => 'Send a comment' },
);

/** `PATCH /comments/{commentid}`: the same text twice is the same comment, so a repeat is harmless. */
export const commentEditAction = defineAction<z.infer<typeof commentEditPayload>, CommentReplayDeps>(
  'commentEdit',
  commentEditPayload,
  async (ctx, row, payload) => {
    const comment = ctx.comments.get(payload.commentId);
    if (!comment) return missingHere('comment');
    if (comment.commentid === null) return missingHere('sent comment');
    const { text } = latest(ctx.outbox.get(row.id), commentEditPayload, payload);
    await patchComment(ctx.transport, comment.commentid, text);
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  },
  { describe: () => 'Change a comment' },
);

/** `DELETE /comments/{commentid}`: one already gone (a repeat after a lost answer) is deleted. */
export const commentDeleteAction = defineAction<z.infer<typeof commentDeletePayload>, CommentReplayDeps>(
  'commentDelete',
  commentDeletePayload,
  async (ctx, row, payload) => {
    const comment = ctx.comments.get(payload.commentId);
    if (!comment) return missingHere('comment');
    // Its send found it had not landed and was dropped: nothing is on the site to delete.
    if (comment.commentid === null && comment.deleted) {
      ctx.outbox.remove(row.id);
      return { type: 'done' };
    }
    if (comment.commentid === null) return missingHere('sent comment');
    try {
      await deleteComment(ctx.transport, comment.commentid);
    } catch (error) {
      if (classify(error).kind !== 'gone') throw error;
    }
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  },
  { describe: () => 'Delete a comment' },
);
