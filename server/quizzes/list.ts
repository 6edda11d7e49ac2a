import { z } from 'zod';
import type { Db } from '../db/types.ts';
import type { QuizRow } from './repo.ts';

/**
 * `POST /quizzes/getQuizzes` body (decided here): paging as everywhere (offset, limit 1..200), `search`
 * in title and description, `filter` by guide, ids or course stage, `sort` by a column either way.
 */
export const getQuizzesBody = z.object({
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(200).default(20),
  search: z.string().max(200).default(''),
  filter: z
    .object({
      guideid: z.number().int().positive().optional(),
      quizids: z.array(z.number().int().positive()).optional(),
      course_stageid: z.number().int().positive().optional(),
    })
    .default({}),
  sort: z
    .object({
      field: z.enum(['quizid', 'title', 'modified', 'passing_score']).default('quizid'),
      order: z.enum(['ASC', 'DESC']).default('ASC'),
    })
    .default({ field: 'quizid', order: 'ASC' }),
});
export type GetQuizzes = z.infer<typeof getQuizzesBody>;

export function listQuizzes(db: Db, query: GetQuizzes): { rows: QuizRow[]; total: number } {
  const clauses: string[] = [];
  const params: Record<string, unknown> = {};
  if (query.search.trim() !== '') {
    clauses.push("(title LIKE @search ESCAPE '\\' OR description LIKE @search ESCAPE '\\')");
    params.search = `%${query.search.trim().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  }
  if (query.filter.guideid !== undefined) {
    clauses.push('quizid IN (SELECT quizid FROM quiz_associations WHERE guideid = @guideid)');
    params.guideid = query.filter.guideid;
  }
  if (query.filter.quizids !== undefined) {
    clauses.push('quizid IN (SELECT value FROM json_each(@quizids))');
    params.quizids = JSON.stringify(query.filter.quizids);
  }
  if (query.filter.course_stageid !== undefined) {
    clauses.push('quizid IN (SELECT quizid FROM course_stage_quizzes WHERE course_stageid = @stage)');
    params.stage = query.filter.course_stageid;
  }
  const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
  const order =
    `${query.sort.field === 'title' ? 'title COLLATE NOCASE' : query.sort.field} ` +
    `${query.sort.order}, quizid ${query.sort.order}`;
  const rows = db
    .prepare(`SELECT * FROM quizzes ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: query.limit, offset: query.offset }) as QuizRow[];
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM quizzes ${where}`).get(params) as { n: number }).n;
  return { rows, total };
}
