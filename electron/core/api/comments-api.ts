import type { CommentContext } from '../../contract.ts';
import { ApiError } from './errors.ts';
import type { ApiTransport } from './transport.ts';
import { commentWire, guideCommentsWire } from './wire/comment.ts';

// The comment writes the outbox sends (iFixit's description: POST /comments/{context}/{contextid},
// PATCH and DELETE /comments/{commentid}).

export interface PostedComment {
  commentid: number;
  /** When the site took it (unix seconds, its clock), or null when it did not say. */
  date: number | null;
}

/**
 * Posts a comment by `userid` (the technician whose sign-in sends it). An answer about another comment (of
 * another page, another thread or another author, as far as it says: a faulty site, answers mixed up on the
 * way) is refused, not taken: a later change or delete of this comment would go to that one. The comment is
 * then looked for on the site like one whose answer was lost.
 */
export async function postComment(
  transport: ApiTransport,
  comment: { context: CommentContext; contextid: number; parentid: number | null; text: string },
  userid: number | null,
): Promise<PostedComment> {
  const resource = `POST /comments/${comment.context}/${comment.contextid}`;
  const answer = await transport.request('POST', `/comments/${comment.context}/${comment.contextid}`, {
    json: { text: comment.text, ...(comment.parentid !== null ? { parentid: comment.parentid } : {}) },
    schema: commentWire,
  });
  const differs = <T>(said: T | null | undefined, ours: T | null) =>
    said !== undefined && said !== null && ours !== null && said !== ours;
  if (
    differs(answer.context, comment.context) ||
    differs(answer.contextid, comment.contextid) ||
    differs(answer.parentid, comment.parentid) ||
    differs(answer.author?.userid, userid)
  ) {
    throw new ApiError(
      'bad_response',
      resource,
      `The site answered this comment with another (comment ${answer.commentid}, on ${answer.context ?? '?'} ` +
        `${answer.contextid ?? '?'} by user ${answer.author?.userid ?? '?'}), so the answer was not taken. ` +
        'Fieldguide looks for this comment on the site before it sends it again.',
    );
  }
  return { commentid: answer.commentid, date: answer.date ?? null };
}

export async function patchComment(transport: ApiTransport, commentid: number, text: string): Promise<void> {
  await transport.request('PATCH', `/comments/${commentid}`, { json: { text }, schema: commentWire });
}

export async function deleteComment(transport: ApiTransport, commentid: number): Promise<void> {
  await transport.request('DELETE', `/comments/${commentid}`);
}

export interface CommentOnSite {
  context: CommentContext;
  contextid: number;
  commentid: number;
  /** The comment it replies to; null for one of the page's own. */
  parentid: number | null;
  userid: number | null;
  text: string;
  date: number | null;
}

/**
 * The site's comments of one guide and its steps with their author and raw text: what a comment whose
 * send got no answer is looked for among (GET /guides/{id} carries them; GET /comments cannot be asked
 * for one page's in the site's description).
 */
export async function guideCommentsOnSite(transport: ApiTransport, guideid: number): Promise<CommentOnSite[]> {
  const wire = await transport.request('GET', `/guides/${guideid}`, {
    query: { excludePrerequisiteSteps: 'true' },
    schema: guideCommentsWire,
  });
  const of = (context: CommentContext, contextid: number, list: typeof wire.comments) =>
    (list ?? []).map((c) => ({
      context,
      contextid,
      commentid: c.commentid,
      parentid: c.parentid ?? null,
      userid: c.author?.userid ?? null,
      text: c.text_raw ?? '',
      date: c.date ?? null,
    }));
  return [...of('guide', guideid, wire.comments), ...wire.steps.flatMap((s) => of('step', s.stepid, s.comments))];
}
