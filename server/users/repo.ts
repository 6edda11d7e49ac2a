import type { Db } from '../db/types.ts';

export type Privilege = 'Admin' | 'Author' | 'Moderator' | 'User';
export const PRIVILEGES: readonly Privilege[] = ['Admin', 'Author', 'Moderator', 'User'];

export interface UserRow {
  userid: number;
  email: string;
  username: string;
  unique_username: string | null;
  password_hash: string;
  join_date: number | null;
  reputation: number;
  privileges: string;
  enabled: number;
  banned: number | null;
  image_json: string | null;
}

/** The User object of reference 2.3. `enabled` and `banned` are always present (a superset of every context). */
export interface UserJson {
  userid: number;
  username: string;
  unique_username: string | null;
  join_date: number | null;
  image: Record<string, unknown> | null;
  reputation: number;
  url: string;
  teams: number[];
  privileges: string[];
  enabled: boolean;
  banned: number | null;
}

export function getUser(db: Db, userid: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE userid = ?').get(userid) as UserRow | undefined;
}

export function getUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined;
}

export function privilegesOf(row: Pick<UserRow, 'privileges'>): Privilege[] {
  return JSON.parse(row.privileges) as Privilege[];
}

export function teamIdsOf(db: Db, userid: number): number[] {
  return (
    db.prepare('SELECT teamid FROM team_members WHERE userid = ? ORDER BY teamid').all(userid) as { teamid: number }[]
  ).map((row) => row.teamid);
}

export function userJson(db: Db, row: UserRow, origin: string): UserJson {
  return {
    userid: row.userid,
    username: row.username,
    unique_username: row.unique_username,
    join_date: row.join_date,
    image: row.image_json ? (JSON.parse(row.image_json) as Record<string, unknown>) : null,
    reputation: row.reputation,
    url: `${origin}/User/${row.userid}/${encodeURIComponent(row.unique_username ?? String(row.userid))}`,
    teams: teamIdsOf(db, row.userid),
    privileges: privilegesOf(row),
    enabled: row.enabled === 1,
    banned: row.banned,
  };
}

export interface NewUser {
  email: string;
  username: string;
  unique_username?: string | null;
  password_hash: string;
  privileges?: readonly Privilege[];
  join_date?: number | null;
  reputation?: number;
}

export function insertUser(db: Db, user: NewUser): number {
  const result = db
    .prepare(
      `INSERT INTO users (email, username, unique_username, password_hash, join_date, reputation, privileges)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      user.email,
      user.username,
      user.unique_username ?? null,
      user.password_hash,
      user.join_date ?? null,
      user.reputation ?? 0,
      JSON.stringify(user.privileges ?? ['User']),
    );
  return Number(result.lastInsertRowid);
}
