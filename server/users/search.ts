import type { Db } from '../db/types.ts';
import { likeContains } from '../http/query.ts';
import type { UserRow } from './repo.ts';

export interface UserSearch {
  text: string;
  uniqueOnly: boolean;
  offset: number;
  limit: number;
  /** Whether e-mail addresses are searched too: for Admins only, or anyone could rebuild them letter by letter. */
  matchEmail: boolean;
}

/**
 * Reference 4.5's order: exact unique_username, exact username, exact e-mail, then partial matches on each
 * of those fields in the same order; ties by userid. All comparisons ignore (ASCII) case. E-mail only
 * with `matchEmail`.
 * A search of digits only is a userid search and returns that user.
 */
export function searchUsers(db: Db, search: UserSearch): { rows: UserRow[]; total: number } {
  const unique = search.uniqueOnly ? 'AND unique_username IS NOT NULL' : '';
  if (/^\d+$/.test(search.text)) {
    const rows = db.prepare(`SELECT * FROM users WHERE userid = ? ${unique}`).all(Number(search.text)) as UserRow[];
    return { rows: rows.slice(search.offset, search.offset + search.limit), total: rows.length };
  }
  const ranked = `
    SELECT *, CASE
        WHEN lower(unique_username) = lower(@text) THEN 0
        WHEN lower(username) = lower(@text) THEN 1
        WHEN @email AND lower(email) = lower(@text) THEN 2
        WHEN unique_username LIKE @like ESCAPE '\\' THEN 3
        WHEN username LIKE @like ESCAPE '\\' THEN 4
        WHEN @email AND email LIKE @like ESCAPE '\\' THEN 5
      END AS rank
    FROM users WHERE rank IS NOT NULL ${unique}`;
  const params = { text: search.text, like: likeContains(search.text), email: search.matchEmail ? 1 : 0 };
  const { total } = db.prepare(`SELECT COUNT(*) AS total FROM (${ranked})`).get(params) as { total: number };
  const rows = db
    .prepare(`${ranked} ORDER BY rank, userid LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: search.limit, offset: search.offset }) as UserRow[];
  return { rows, total };
}
