import type { Result } from './result.ts';

/** The App API of comments: those the site keeps on a guide and its steps, and the technician's own. */

/** Where a comment is: on the guide itself or on one of its steps. */
export type CommentContext = 'guide' | 'step';

/** A comment as the site keeps it, synced with the guide (GuideDetail.comments, GuideStep.comments). */
export interface SiteComment {
  commentid: number;
  /** The comment it replies to, or null. */
  parentid: number | null;
  authorUserid: number | null;
  author: string;
  /** Unix seconds. */
  date: number;
  /** Server HTML: the renderer shows it only through DOMPurify. */
  textRendered: string;
}

/**
 * A comment this technician wrote on this computer. `waiting`: not on the site yet (editable and
 * deletable here); `sent`: the site has it (`commentid`), and until `editableUntil` (unix seconds, the
 * site's clock) an edit or a delete is queued for the site; `deleted`: a delete is queued or done.
 */
export interface MyComment {
  id: string;
  guideid: number;
  context: CommentContext;
  contextid: number;
  parentid: number | null;
  text: string;
  state: 'waiting' | 'sent' | 'deleted';
  /** A change (the comment, an edit, a delete) is queued and not on the site yet. */
  unsent: boolean;
  commentid: number | null;
  writtenAt: number;
  editableUntil: number | null;
}

export interface GuideComments {
  /** False when the site has no comments (the module probe): every view of comments is hidden. */
  offered: boolean;
  mine: MyComment[];
}

export interface NewComment {
  guideid: number;
  context: CommentContext;
  /** The guide's id for a comment on the guide, the step's id for one on a step. */
  contextid: number;
  parentid?: number;
  text: string;
}

export interface CommentsApi {
  /** The current technician's own comments on a guide, and whether the site has comments at all. */
  guideComments(guideid: number): Promise<Result<GuideComments>>;
  /** Queues a comment (no network needed): sent once, under this technician's name. */
  writeComment(comment: NewComment): Promise<Result<MyComment>>;
  /** Changes a waiting comment in place, or queues the change of a sent one within the site's 5 minutes. */
  editComment(input: { id: string; text: string }): Promise<Result<MyComment>>;
  /** Drops a waiting comment, or queues the delete of a sent one within the site's 5 minutes. */
  deleteComment(id: string): Promise<Result<MyComment | null>>;
}
