import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// A password is never kept: only a salted scrypt of it, sealed with the technician's token, so they can
// sign in again on this laptop while the site cannot be reached. N=16384 is scrypt's interactive cost.
const COST = 16384;
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, cost: number, length: number): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password, salt, length, { N: cost }, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** `scrypt$<N>$<salt hex>$<hash hex>` */
export async function makeVerifier(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, COST, KEY_LENGTH);
  return `scrypt$${COST}$${salt.toString('hex')}$${hash.toString('hex')}`;
}

export async function matchesVerifier(password: string, verifier: string): Promise<boolean> {
  const [scheme, cost, saltHex, hashHex] = verifier.split('$');
  if (scheme !== 'scrypt' || !cost || !saltHex || !hashHex || !/^\d+$/.test(cost)) return false;
  const expected = Buffer.from(hashHex, 'hex');
  if (expected.length === 0) return false;
  const actual = await derive(password, Buffer.from(saltHex, 'hex'), Number(cost), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Compares a typed token with the kept one in constant time. */
export function matchesToken(typed: string, kept: string): boolean {
  const [a, b] = [Buffer.from(typed.trim(), 'utf8'), Buffer.from(kept, 'utf8')];
  return a.length === b.length && timingSafeEqual(a, b);
}
