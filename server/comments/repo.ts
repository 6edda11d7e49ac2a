import type { Db } from '../db/types.ts';
import { getUser, userJson } from '../users/repo.ts';
import { renderInline } from '../guides/markup.ts';

export const COMMENT_CONTEXTS = ['guide', 'step', 'wiki', 'post', 'info', 'story'] as const;
export type CommentContext = (typeof COMMENT_CONTEXTS)[number];

export interface CommentRow {
  commentid: number;
  context: CommentContext;
  contextid: number;
  parentid: number | null;
  userid: number;
  locale: string;
  text_raw: string;
  text_rendered: string;
  date: number;
  modified_date: number;
}

/**
 * Comment (reference 2.10 names commentid, locale, context, contextid, parentid and author; the rest is
 * decided here): text raw and rendered, dates, and `status` (always `public` on this server).
 */
export function commentJson(db: Db, origin: string, row: CommentRow) {
  const author = getUser(db, row.userid);
  return {
    commentid: row.commentid,
    locale: row.locale,
    context: row.context,
    contextid: row.contextid,
    parentid: row.parentid,
    author: author ? userJson(db, author, origin) : null,
    text_raw: row.text_raw,
    text_rendered: row.text_rendered,
    date: row.date,
    modified_date: row.modified_date,
    status: 'public',
  };
}

export type CommentJson = ReturnType<typeof commentJson>;

/** Comments of several objects of one context, by object id, oldest first. */
export function commentsOf(
  db: Db,
  origin: string,
  context: CommentContext,
  ids: readonly number[],
): Map<number, CommentJson[]> {
  const found = new Map<number, CommentJson[]>();
  if (ids.length === 0) return found;
  const rows = db
    .prepare(
      'SELECT * FROM comments WHERE context = ? AND contextid IN (SELECT value FROM json_each(?)) ORDER BY commentid',
    )
    .all(context, JSON.stringify(ids)) as CommentRow[];
  for (const row of rows) {
    const list = found.get(row.contextid) ?? [];
    list.push(commentJson(db, origin, row));
    found.set(row.contextid, list);
  }
  return found;
}

/**
 * Comments as iFixit's guide answers carry them (its OpenAPI, `Guide.comments` and a step's): the top-level
 * ones, each with its `replies`, newest first ("present only on top-level comments"). A reply to a reply goes
 * with its top-level comment; each keeps its own `parentid`.
 */
export function threaded<C extends { commentid: number; parentid: number | null }>(
  comments: readonly C[],
): (C & { replies: C[] })[] {
  const byId = new Map(comments.map((comment) => [comment.commentid, comment]));
  const rootOf = (comment: C): number => {
    let at = comment;
    for (let hops = 0; at.parentid !== null && byId.has(at.parentid) && hops < comments.length; hops++)
      at = byId.get(at.parentid)!;
    return at.commentid;
  };
  const replies = new Map<number, C[]>();
  for (const comment of comments) {
    const root = rootOf(comment);
    if (root !== comment.commentid) replies.set(root, [...(replies.get(root) ?? []), comment]);
  }
  return comments
    .filter((comment) => rootOf(comment) === comment.commentid)
    .map((comment) => ({
      ...comment,
      replies: (replies.get(comment.commentid) ?? []).sort((a, b) => b.commentid - a.commentid),
    }));
}

export function getComment(db: Db, commentid: number): CommentRow | undefined {
  return db.prepare('SELECT * FROM comments WHERE commentid = ?').get(commentid) as CommentRow | undefined;
}

export function insertComment(
  db: Db,
  comment: {
    context: CommentContext;
    contextid: number;
    parentid: number | null;
    userid: number;
    text: string;
    now: number;
  },
): CommentRow {
  const id = db
    .prepare(
      `INSERT INTO comments (context, contextid, parentid, userid, text_raw, text_rendered, date, modified_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      comment.context,
      comment.contextid,
      comment.parentid,
      comment.userid,
      comment.text,
      renderInline(comment.text),
      comment.now,
      comment.now,
    ).lastInsertRowid;
  return getComment(db, Number(id))!;
}
