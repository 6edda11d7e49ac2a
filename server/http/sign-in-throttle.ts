import type { Context } from 'hono';
import { HttpError } from './errors.ts';

export interface SignInThrottleOptions {
  /** Failed sign-ins per e-mail address (known or not) within the window before the next is a 429. */
  readonly perAccount: number;
  /**
   * Failed sign-ins per client address within the window. Higher than `perAccount`: on this machine every
   * client is 127.0.0.1, so one person mistyping must not lock the others out of their accounts.
   */
  readonly perAddress: number;
  readonly windowSeconds: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottleOptions = { perAccount: 10, perAddress: 50, windowSeconds: 60 };

/** Keys kept per limiter; past this, expired keys are dropped, then the oldest. */
const MAX_KEYS = 10_000;

/** Failures per key within a sliding window; only the newest `limit` times matter, so only those are kept. */
class FailureWindow {
  readonly #times = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until `key` may try again, or 0 when it may now. */
  waitMs(key: string, now: number): number {
    const times = this.#live(key, now);
    if (times.length < this.limit) return 0;
    return times[times.length - this.limit]! + this.windowMs - now;
  }

  add(key: string, now: number): void {
    const times = this.#live(key, now);
    times.push(now);
    if (times.length > this.limit) times.splice(0, times.length - this.limit);
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
  /** The credentials were right: the attempt no longer counts, and the account's failures are forgotten. */
  succeeded(): void;
}

/**
 * Throttles failed sign-ins per account and per client address. `begin` answers 429 with `Retry-After`
 * when either has failed `limit` times within the window, even for a right password (a guesser must not
 * learn which guess was right from the answer); otherwise it counts the attempt as a failure until it
 * succeeds. Time is the machine's clock (the test hooks' settable clock is for the site's data).
 */
export class SignInThrottle {
  readonly #accounts: FailureWindow;
  readonly #addresses: FailureWindow;

  constructor(
    options: SignInThrottleOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.#accounts = new FailureWindow(options.perAccount, options.windowSeconds * 1000);
    this.#addresses = new FailureWindow(options.perAddress, options.windowSeconds * 1000);
  }

  begin(email: string, address: string): SignInAttempt {
    const account = email.trim().toLowerCase();
    const now = this.now();
    const waitMs = Math.max(this.#accounts.waitMs(account, now), this.#addresses.waitMs(address, now));
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new HttpError(429, `Too many failed sign-ins: try again in ${seconds} s`, undefined, undefined, { 'Retry-After': String(seconds) });
    }
    this.#accounts.add(account, now);
    this.#addresses.add(address, now);
    return {
      succeeded: () => {
        this.#accounts.clear(account);
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
