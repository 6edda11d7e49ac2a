import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Db } from '../db/types.ts';
import { getUser, privilegesOf, type Privilege, type UserRow } from '../users/repo.ts';
import { forbidden, unauthorized } from './errors.ts';
import type { AppEnv } from './env.ts';

const KEY_LENGTH = 32;
// N=16384 is scrypt's interactive-login cost; the demo seeds four users, tests sign in dozens of times.
const COST = 16384;

/** `scrypt$<N>$<salt hex>$<hash hex>` */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, KEY_LENGTH, { N: COST });
  return `scrypt$${COST}$${salt.toString('hex')}$${hash.toString('hex')}`;
}

/** Longer passwords are refused before any hashing (scrypt's time grows with the input). */
export const MAX_PASSWORD_LENGTH = 1024;

/** Longer e-mail addresses are refused at sign-in: no address is that long, and the throttle keeps them as keys. */
export const MAX_EMAIL_LENGTH = 320;

/**
 * Stands in for the hash of a user who does not exist, so a sign-in with an unknown e-mail runs the same
 * scrypt as one with a known e-mail and takes as long: the answer's timing does not tell which e-mails
 * have accounts. No password matches it (its key is zeros, which scrypt does not produce in practice).
 */
export const DUMMY_PASSWORD_HASH = `scrypt$${COST}$${'00'.repeat(16)}$${'00'.repeat(KEY_LENGTH)}`;

/** Always runs scrypt once: a stored hash this code cannot read is checked against the dummy (and fails). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  const { cost, salt, expected } = parsed ?? parseHash(DUMMY_PASSWORD_HASH)!;
  const actual = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, expected.length, { N: cost }, (error, key) => (error ? reject(error) : resolve(key))),
  );
  return parsed !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

function parseHash(stored: string): { cost: number; salt: Buffer; expected: Buffer } | null {
  const [scheme, cost, saltHex, hashHex] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !saltHex || !hashHex) return null;
  const N = Number(cost);
  // scrypt's own limits: a power of two, and small enough for its default memory cap.
  if (!Number.isSafeInteger(N) || N < 2 || N > 32_768 || (N & (N - 1)) !== 0) return null;
  const expected = Buffer.from(hashHex, 'hex');
  return expected.length ? { cost: N, salt: Buffer.from(saltHex, 'hex'), expected } : null;
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A new random token for the user; only its sha256 is stored. */
export function issueToken(db: Db, userid: number, now: number): string {
  const token = randomBytes(32).toString('hex');
  db.prepare('INSERT INTO tokens (token_hash, userid, created) VALUES (?, ?, ?)').run(hashToken(token), userid, now);
  return token;
}

export function revokeToken(db: Db, token: string): void {
  db.prepare('DELETE FROM tokens WHERE token_hash = ?').run(hashToken(token));
}

export function userForToken(db: Db, token: string): UserRow | undefined {
  const row = db.prepare('SELECT userid FROM tokens WHERE token_hash = ?').get(hashToken(token)) as
    { userid: number } | undefined;
  return row ? getUser(db, row.userid) : undefined;
}

/** The token of `Authorization: api <token>` (reference §5), or null when absent or of another scheme. */
export function tokenFromHeader(header: string | undefined): string | null {
  const match = /^api\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/**
 * Resolves the caller. An unknown or revoked token leaves the caller anonymous: public endpoints still
 * answer, and every endpoint that needs a user answers 401 (public-shapes.md: the client then signs in).
 */
export function authMiddleware(db: Db): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = tokenFromHeader(c.req.header('Authorization'));
    const user = token ? userForToken(db, token) : undefined;
    const usable = user && user.enabled === 1 && user.banned === null;
    c.set('user', usable ? user : null);
    c.set('token', usable ? token : null);
    await next();
  };
}

export function currentUser(c: Context<AppEnv>): UserRow | null {
  return c.get('user') ?? null;
}

/** Who asks, as visibility rules need it: null when anonymous. */
export type Viewer = { userid: number; admin: boolean } | null;

export function viewerOf(c: Context<AppEnv>): Viewer {
  const user = currentUser(c);
  return user ? { userid: user.userid, admin: isAdmin(user) } : null;
}

export function requireUser(c: Context<AppEnv>): UserRow {
  const user = currentUser(c);
  if (!user) throw unauthorized();
  return user;
}

/** Admin holds every privilege. */
export function hasPrivilege(user: UserRow | null, privilege: Privilege): boolean {
  if (!user) return false;
  const held = privilegesOf(user);
  return held.includes('Admin') || held.includes(privilege);
}

export const isAdmin = (user: UserRow | null): boolean => hasPrivilege(user, 'Admin');

/** Authors, moderators and admins edit content. */
export const canEditContent = (user: UserRow | null): boolean =>
  hasPrivilege(user, 'Author') || hasPrivilege(user, 'Moderator');

/** The signed-in user holding one of the privileges (or Admin); 401 when anonymous, 403 otherwise. */
export function requirePrivilege(c: Context<AppEnv>, ...anyOf: Privilege[]): UserRow {
  const user = requireUser(c);
  if (!anyOf.some((privilege) => hasPrivilege(user, privilege))) {
    throw forbidden(`This needs one of these privileges: ${anyOf.join(', ')}`);
  }
  return user;
}
