import type { Db } from '../db/types.ts';
import type { Viewer } from '../http/auth.ts';
import type { Order } from '../http/paging.ts';
import { userJson, type UserJson, type UserRow } from '../users/repo.ts';

export interface TeamRow {
  teamid: number;
  name: string;
  description: string;
  owner: number;
  privacy: 'public' | 'private';
  created: number;
}

/** Team summary of reference 2.4 (`GET /teams`, `/teams/{teamid}/attributes`). */
export interface TeamSummary {
  teamid: number;
  name: string;
  description: string;
  owner: number;
  reputation: number;
  member_count: number;
  image: null;
}

/** The team as an approval stage embeds it (reference 2.4; location fields omitted as in process detail). */
export interface StageTeam extends TeamSummary {
  new_member_since: number;
}

interface TeamStats {
  reputation: number;
  member_count: number;
  newest: number | null;
}

export function getTeam(db: Db, teamid: number): TeamRow | undefined {
  return db.prepare('SELECT * FROM teams WHERE teamid = ?').get(teamid) as TeamRow | undefined;
}

export function isMember(db: Db, teamid: number, userid: number): boolean {
  return db.prepare('SELECT 1 FROM team_members WHERE teamid = ? AND userid = ?').get(teamid, userid) !== undefined;
}

function stats(db: Db, teamid: number): TeamStats {
  return db
    .prepare(
      `SELECT COALESCE(SUM(u.reputation), 0) AS reputation, COUNT(*) AS member_count, MAX(m.joined) AS newest
       FROM team_members m JOIN users u USING (userid) WHERE m.teamid = ?`,
    )
    .get(teamid) as TeamStats;
}

export function teamSummary(db: Db, team: TeamRow): TeamSummary {
  const { reputation, member_count } = stats(db, team.teamid);
  return {
    teamid: team.teamid,
    name: team.name,
    description: team.description,
    owner: team.owner,
    reputation,
    member_count,
    image: null,
  };
}

/** `new_member_since`: when the newest member joined (the team's creation while it has none). */
export function stageTeam(db: Db, team: TeamRow): StageTeam {
  const { newest } = stats(db, team.teamid);
  return { ...teamSummary(db, team), new_member_since: newest ?? team.created };
}

export function members(db: Db, teamid: number, order: Order, origin: string): UserJson[] {
  const rows = db
    .prepare(`SELECT u.* FROM team_members m JOIN users u USING (userid) WHERE m.teamid = ? ORDER BY u.userid ${order}`)
    .all(teamid) as UserRow[];
  return rows.map((row) => userJson(db, row, origin));
}

export function addMembers(db: Db, teamid: number, userids: readonly number[], now: number): void {
  const insert = db.prepare('INSERT OR IGNORE INTO team_members (teamid, userid, joined) VALUES (?, ?, ?)');
  for (const userid of userids) insert.run(teamid, userid, now);
}

export function removeMembers(db: Db, teamid: number, userids: readonly number[]): void {
  const remove = db.prepare('DELETE FROM team_members WHERE teamid = ? AND userid = ?');
  for (const userid of userids) remove.run(teamid, userid);
}

export function createTeam(
  db: Db,
  team: {
    name: string;
    description?: string;
    owner: number;
    privacy: 'public' | 'private';
    members: readonly number[];
  },
  now: number,
): TeamRow {
  const teamid = Number(
    db
      .prepare('INSERT INTO teams (name, description, owner, privacy, created) VALUES (?, ?, ?, ?, ?)')
      .run(team.name, team.description ?? '', team.owner, team.privacy, now).lastInsertRowid,
  );
  // The owner manages the team from inside it.
  addMembers(db, teamid, [team.owner, ...team.members], now);
  return getTeam(db, teamid)!;
}

export interface TeamListQuery {
  offset: number;
  limit: number;
  order: Order;
  newMemberSince: number | null;
  /** Private teams are listed to their members and to admins only. */
  viewer: Viewer;
}

export function listTeams(db: Db, query: TeamListQuery): TeamRow[] {
  return db
    .prepare(
      `SELECT t.* FROM teams t
       WHERE (t.privacy = 'public' OR @admin = 1
              OR EXISTS (SELECT 1 FROM team_members m WHERE m.teamid = t.teamid AND m.userid = @viewer))
         AND (@since IS NULL OR EXISTS (SELECT 1 FROM team_members m WHERE m.teamid = t.teamid AND m.joined >= @since))
       ORDER BY t.teamid ${query.order} LIMIT @limit OFFSET @offset`,
    )
    .all({
      admin: query.viewer?.admin ? 1 : 0,
      viewer: query.viewer?.userid ?? null,
      since: query.newMemberSince,
      limit: query.limit,
      offset: query.offset,
    }) as TeamRow[];
}

export function canSeeTeam(db: Db, team: TeamRow, viewer: Viewer): boolean {
  return team.privacy === 'public' || !!viewer?.admin || (!!viewer && isMember(db, team.teamid, viewer.userid));
}
