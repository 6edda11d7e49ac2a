import type { CommentContext, MyComment, SiteComment } from '../../electron/contract.ts';

/** One comment as a thread shows it: the site's, or this technician's own (sent or waiting). */
export interface ShownComment {
  key: string;
  author: string;
  date: number;
  /** Server HTML (through SafeHtml) for the site's; plain text for this technician's own. */
  html: string | null;
  text: string | null;
  /** Not on the site yet, or a change of it not yet: "waiting to be sent". */
  waiting: boolean;
  /** This technician's own comment on this computer: editable and deletable while `changeable`. */
  mine: MyComment | null;
  replies: ShownComment[];
}

/**
 * The comments of one guide or step: the site's as synced, with this technician's own laid over them
 * (a sent one shows its latest text, a deleted one is gone) and those waiting added, replies under
 * what they answer. Pure: the view passes `me` (their name) and the comments.
 */
export function commentThread(
  site: readonly SiteComment[],
  mine: readonly MyComment[],
  where: { context: CommentContext; contextid: number },
  me: string,
): ShownComment[] {
  const own = mine.filter((c) => c.context === where.context && c.contextid === where.contextid);
  const byCommentid = new Map(own.filter((c) => c.commentid !== null).map((c) => [c.commentid!, c]));
  const shown: (ShownComment & { id: number | null; parentid: number | null })[] = [];
  for (const comment of site) {
    const overlay = byCommentid.get(comment.commentid);
    if (overlay?.state === 'deleted') continue;
    shown.push({
      key: `site-${comment.commentid}`,
      id: comment.commentid,
      parentid: comment.parentid,
      author: comment.author,
      date: comment.date,
      html: overlay ? null : comment.textRendered,
      text: overlay ? overlay.text : null,
      waiting: overlay?.unsent ?? false,
      mine: overlay ?? null,
      replies: [],
    });
  }
  for (const comment of own) {
    if (comment.state === 'deleted' || (comment.commentid !== null && shown.some((s) => s.id === comment.commentid)))
      continue;
    shown.push({
      key: `mine-${comment.id}`,
      id: comment.commentid,
      parentid: comment.parentid,
      author: me,
      date: comment.writtenAt,
      html: null,
      text: comment.text,
      waiting: comment.unsent,
      mine: comment,
      replies: [],
    });
  }
  const top: ShownComment[] = [];
  for (const comment of shown) {
    const parent = comment.parentid === null ? undefined : shown.find((s) => s.id === comment.parentid);
    (parent ? parent.replies : top).push(comment);
  }
  return top;
}

/** Whether this technician may still change their comment (the site's 5 minutes, on its clock). */
export const changeable = (comment: MyComment, siteNow: number): boolean =>
  comment.state !== 'deleted' && (comment.editableUntil === null || siteNow < comment.editableUntil);
