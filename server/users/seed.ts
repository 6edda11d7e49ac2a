import type { Db } from '../db/types.ts';
import { DEMO_ACCOUNTS, DEMO_TEAM, type DemoAccountName } from '../demo-accounts.ts';
import { hashPassword } from '../http/auth.ts';
import { insertUser } from './repo.ts';

// Fixed dates keep the demo site the same on every start: 2024-01-08, then a week apart.
const FIRST_JOIN = 1_704_672_000;
const WEEK = 7 * 24 * 3600;

/** The demo accounts and their team. Returns the userids by account name, for content seeds to use. */
export function seedDemoPeople(db: Db): Record<DemoAccountName, number> {
  const ids = {} as Record<DemoAccountName, number>;
  // scrypt is slow by design and the accounts share a password: hash each distinct password once.
  const hashes = new Map<string, string>();
  const hashOf = (password: string) => hashes.get(password) ?? hashes.set(password, hashPassword(password)).get(password)!;
  const names = Object.keys(DEMO_ACCOUNTS) as DemoAccountName[];
  names.forEach((name, index) => {
    const account = DEMO_ACCOUNTS[name];
    ids[name] = insertUser(db, {
      email: account.email,
      username: account.username,
      unique_username: account.unique_username,
      password_hash: hashOf(account.password),
      privileges: account.privileges,
      join_date: FIRST_JOIN + index * WEEK,
      reputation: 100 * (names.length - index),
    });
  });
  const teamCreated = FIRST_JOIN + names.length * WEEK;
  const teamid = Number(
    db
      .prepare('INSERT INTO teams (name, description, owner, privacy, created) VALUES (?, ?, ?, ?, ?)')
      .run(DEMO_TEAM.name, DEMO_TEAM.description, ids.tech1, 'public', teamCreated).lastInsertRowid,
  );
  for (const member of DEMO_TEAM.members) {
    db.prepare('INSERT INTO team_members (teamid, userid, joined) VALUES (?, ?, ?)').run(teamid, ids[member], teamCreated);
  }
  return ids;
}
