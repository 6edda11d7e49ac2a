import type { SiteComment } from '../../contract.ts';
import type { CommentWire } from './wire/comment.ts';

/** A comment as the app keeps it; a deleted or private one the site still lists is left out. */
export function toComment(wire: CommentWire): SiteComment | null {
  if (wire.status && wire.status !== 'public') return null;
  return {
    commentid: wire.commentid,
    parentid: wire.parentid ?? null,
    authorUserid: wire.author?.userid ?? null,
    author: wire.author?.username ?? 'Someone',
    date: wire.date ?? 0,
    textRendered: wire.text_rendered ?? '',
  };
}

export const toComments = (list: readonly CommentWire[] | undefined): SiteComment[] =>
  (list ?? []).flatMap((wire) => toComment(wire) ?? []).sort((a, b) => a.commentid - b.commentid);
