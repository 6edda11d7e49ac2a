import type { Context } from 'hono';
import { HttpError } from './errors.ts';

export interface SignInThrottleOptions {
  /** Failed sign-ins for one account from one client address within the window before the next is a 429. */
  readonly perAccount: number;
  /**
   * Failed sign-ins from one client address (any accounts) within the window before that address is
   * slowed to one guess per account. Higher than `perAccount`: a workshop behind one address shares it.
   */
  readonly perAddress: number;
  readonly windowSeconds: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleOptions = { perAccount: 10, perAddress: 50, windowSeconds: 60 };

/** Keys kept per limiter; past this, expired keys are dropped, then the oldest. */
const MAX_KEYS = 10_000;

/** Failures per key within a sliding window; only the newest `keep` times matter, so only those are kept. */
class FailureWindow {
  readonly #times = new Map<string, number[]>();

  constructor(
    private readonly keep: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until `key` has fewer than `limit` failures in the window, or 0 when it has now. */
  waitMs(key: string, now: number, limit = this.keep): number {
    const times = this.#live(key, now);
    if (times.length < limit) return 0;
    return times[times.length - limit]! + this.windowMs - now;
  }

  add(key: string, now: number): void {
    const times = this.#live(key, now);
    times.push(now);
    if (times.length > this.keep) times.splice(0, times.length - this.keep);
    this.#times.delete(key); // re-inserted last: the map's order is the order of last failure
    this.#times.set(key, times);
    if (this.#times.size > MAX_KEYS) this.#prune(now);
  }

  /** Takes back one failure recorded at `at` (the attempt it stood for succeeded). */
  remove(key: string, at: number): void {
    const times = this.#times.get(key);
    const index = times?.lastIndexOf(at) ?? -1;
    if (index >= 0) times!.splice(index, 1);
    if (times?.length === 0) this.#times.delete(key);
  }

  clear(key: string): void {
    this.#times.delete(key);
  }

  #live(key: string, now: number): number[] {
    const times = this.#times.get(key) ?? [];
    while (times.length && times[0]! <= now - this.windowMs) times.shift();
    return times;
  }

  #prune(now: number): void {
    for (const [key, times] of this.#times) {
      if (times[times.length - 1]! <= now - this.windowMs) this.#times.delete(key);
    }
    for (const key of this.#times.keys()) {
      if (this.#times.size <= MAX_KEYS) break;
      this.#times.delete(key);
    }
  }
}

/** One sign-in attempt under way: counted as failed from the start, so parallel guesses cannot slip past. */
export interface SignInAttempt {
  /** The credentials were right: the attempt no longer counts, and this pair's failures are forgotten. */
  succeeded(): void;
}

/**
 * Throttles the guesser, not the owner. Failures are counted per account *and* client address: after
 * `perAccount` of them within the window, that pair answers 429 with `Retry-After`, even for a right
 * password (the guesser must not learn which guess was right), while the owner signing in from anywhere
 * else is not held. An address that failed `perAddress` times (a spray over many e-mails) is slowed to one
 * guess per account: an account it already failed is held, an account it has not tried is still checked,
 * so a colleague behind the same address (a workshop's NAT) signs in with the right password. Every check
 * that is not held runs scrypt, for known and unknown e-mails alike (routes/auth.ts), so timing tells
 * nothing. Time is the machine's clock (the test hooks' settable clock is for the site's data).
 */
export class SignInThrottle {
  readonly #pairs: FailureWindow;
  readonly #addresses: FailureWindow;
  readonly #perAddress: number;

  constructor(
    options: SignInThrottleOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.#pairs = new FailureWindow(options.perAccount, options.windowSeconds * 1000);
    this.#addresses = new FailureWindow(options.perAddress, options.windowSeconds * 1000);
    this.#perAddress = options.perAddress;
  }

  begin(email: string, address: string): SignInAttempt {
    const pair = `${address}\n${email.trim().toLowerCase()}`;
    const now = this.now();
    const spraying = this.#addresses.waitMs(address, now, this.#perAddress) > 0;
    const waitMs = this.#pairs.waitMs(pair, now, spraying ? 1 : undefined);
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new HttpError(429, `Too many failed sign-ins: try again in ${seconds} s`, undefined, undefined, {
        'Retry-After': String(seconds),
      });
    }
    this.#pairs.add(pair, now);
    this.#addresses.add(address, now);
    return {
      succeeded: () => {
        this.#pairs.clear(pair);
        this.#addresses.remove(address, now);
      },
    };
  }
}

/** The address the request came from (the socket's, not a header a client can write). */
export function clientAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
