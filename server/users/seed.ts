import type { Db } from '../db/types.ts';
import { DEMO_ACCOUNTS, DEMO_TEAM, type DemoAccountName } from '../demo-accounts.ts';
import { hashPassword, verifyPassword } from '../http/auth.ts';
import { insertUser } from './repo.ts';

// Fixed dates keep the demo site the same on every start: 2024-01-08, then a week apart.
const FIRST_JOIN = 1_704_672_000;
const WEEK = 7 * 24 * 3600;

/**
 * The documented demo password's hash (hashPassword('fieldguide'), made once and kept): every site the tests
 * start is seeded with it, and one scrypt each cost a site about 0.1 s of CPU, some 200 times in a quick
 * test run. The password is public, so its salt may be too; test/server/auth.test.ts checks it verifies.
 * A password the app makes at install (the demo workshop's) is hashed afresh.
 */
export const DOCUMENTED_PASSWORD_HASH =
  'scrypt$16384$b766a134c4af2219f4179d7ba3ebe177$a11b180acdfbad53359f82a108cff1ba289065797da51c08157352a79185bd65';
const DOCUMENTED_PASSWORD = 'fieldguide';

/**
 * The demo accounts and their team. Returns the userids by account name, for content seeds to use.
 * `password` replaces every account's documented one (the app's demo workshop: made at install).
 */
export function seedDemoPeople(db: Db, options: { password?: string } = {}): Record<DemoAccountName, number> {
  const ids = {} as Record<DemoAccountName, number>;
  // scrypt is slow by design and the accounts share a password: hash each distinct password once.
  const hashes = new Map<string, string>([[DOCUMENTED_PASSWORD, DOCUMENTED_PASSWORD_HASH]]);
  const hashOf = (password: string) =>
    hashes.get(password) ?? hashes.set(password, hashPassword(password)).get(password)!;
  const names = Object.keys(DEMO_ACCOUNTS) as DemoAccountName[];
  names.forEach((name, index) => {
    const account = DEMO_ACCOUNTS[name];
    ids[name] = insertUser(db, {
      email: account.email,
      username: account.username,
      unique_username: account.unique_username,
      password_hash: hashOf(options.password ?? account.password),
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
    db.prepare('INSERT INTO team_members (teamid, userid, joined) VALUES (?, ?, ?)').run(
      teamid,
      ids[member],
      teamCreated,
    );
  }
  return ids;
}

/**
 * Gives every demo account that does not have it the password `password` (a site seeded before the app
 * made one keeps `fieldguide` otherwise). One scrypt check per distinct stored hash; nothing is written
 * when they all match.
 */
export async function useDemoPassword(db: Db, password: string): Promise<void> {
  const checked = new Map<string, boolean>();
  let hash: string | undefined;
  for (const account of Object.values(DEMO_ACCOUNTS)) {
    const row = db.prepare('SELECT userid, password_hash FROM users WHERE email = ?').get(account.email) as
      { userid: number; password_hash: string } | undefined;
    if (!row) continue;
    let matches = checked.get(row.password_hash);
    if (matches === undefined) {
      matches = await verifyPassword(password, row.password_hash);
      checked.set(row.password_hash, matches);
    }
    if (matches) continue;
    hash ??= hashPassword(password);
    db.prepare('UPDATE users SET password_hash = ? WHERE userid = ?').run(hash, row.userid);
  }
}
