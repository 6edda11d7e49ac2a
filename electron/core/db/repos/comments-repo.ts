import type { CommentContext } from '../../../contract.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

/** A comment written on this computer (migrations/0018-comments.ts). */
export interface MyCommentRow {
  id: string;
  technician: number;
  guideid: number;
  context: CommentContext;
  contextid: number;
  parentid: number | null;
  text: string;
  writtenAt: number;
  commentid: number | null;
  postedAt: number | null;
  deleted: boolean;
}

interface Record_ extends Omit<MyCommentRow, 'deleted'> {
  deleted: number;
}

const SELECT = `SELECT id, technician, guideid, context, contextid, parentid, text, written_at AS writtenAt,
  commentid, posted_at AS postedAt, deleted FROM my_comments`;

const toRow = (r: Record_ | undefined): MyCommentRow | undefined => r && { ...r, deleted: r.deleted === 1 };

/** The comments technicians wrote here, each theirs. */
export class CommentsRepo {
  constructor(private readonly db: Db) {}

  get(id: string): MyCommentRow | undefined {
    return toRow(sql<[string], Record_>(this.db, `${SELECT} WHERE id = ?`).get(id));
  }

  /** One technician's comments on a guide, in the order they wrote them. */
  ofGuide(technician: number, guideid: number): MyCommentRow[] {
    return sql<[number, number], Record_>(
      this.db,
      `${SELECT} WHERE technician = ? AND guideid = ? ORDER BY written_at, rowid`,
    )
      .all(technician, guideid)
      .map((r) => toRow(r)!);
  }

  /**
   * A site's comment is one written here (a lost answer's comment already adopted is not adopted twice).
   * A deleted one is not counted: a site may give its id to a later comment.
   */
  knows(commentid: number): boolean {
    return sql(this.db, 'SELECT 1 FROM my_comments WHERE commentid = ? AND deleted = 0').get(commentid) !== undefined;
  }

  insert(row: Omit<MyCommentRow, 'commentid' | 'postedAt' | 'deleted'>): void {
    sql(
      this.db,
      `INSERT INTO my_comments (id, technician, guideid, context, contextid, parentid, text, written_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(row.id, row.technician, row.guideid, row.context, row.contextid, row.parentid, row.text, row.writtenAt);
  }

  setText(id: string, text: string): void {
    sql(this.db, 'UPDATE my_comments SET text = ? WHERE id = ?').run(text, id);
  }

  /** The site took it: its id there, and when (its clock), or now when it did not say. */
  posted(id: string, commentid: number, postedAt: number): void {
    sql(this.db, 'UPDATE my_comments SET commentid = ?, posted_at = ? WHERE id = ?').run(commentid, postedAt, id);
  }

  markDeleted(id: string): void {
    sql(this.db, 'UPDATE my_comments SET deleted = 1 WHERE id = ?').run(id);
  }

  /** A comment never sent, dropped with its queued send. */
  remove(id: string): void {
    sql(this.db, 'DELETE FROM my_comments WHERE id = ?').run(id);
  }
}
