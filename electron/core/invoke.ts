import type { Result } from '../contract.ts';
import { isDamage } from './db/damage.ts';
import { isDiskFailure, isStorageFull, storageFailure, storageFull } from './db/disk-space.ts';
import type { BoundMethod } from './methods.ts';
import { AppFailure } from './result.ts';

/** What a storage failure sets off, and what every answer waits for. */
export interface StorageGuard {
  /** Gives room back on a full disk (true when it did). */
  full: () => boolean;
  /** A technician's work was refused on the full disk, the room given back used up too: said on the screens. */
  refused: () => void;
  /**
   * Finds what is damaged: `repaired` now (the pictures database, made again), `restart` (the main
   * database, marked for repair at the next start) or `none` (a full check found nothing: no restart
   * would repair anything).
   */
  damaged: (error: unknown) => DamageFound;
  /** The disk cannot be written: nothing more is taken (store.ts failDisk). */
  failed: (error: unknown) => void;
  /**
   * The work journal on the disk before an answer goes out, and the log too when `walOwed` (store.ts
   * settle); rejects when it cannot be.
   */
  settle: (walOwed: boolean) => Promise<void>;
  /** Runs the synchronous part of a technician's work, its commits flushed by `settle` (store.ts deferFlushes). */
  deferFlushes: <T>(fn: () => T) => { value: T; owed: boolean };
}
type DamageFound = 'repaired' | 'restart' | 'none';

/** What a damage found while running is told as: a restart only when it will repair something. */
const DAMAGE_WORDS = {
  restart:
    "Fieldguide's database is damaged, so this could not be done. Restart Fieldguide: it sets the damaged file " +
    'aside, recovers your work into a new one and tells you what it recovered.',
  repaired:
    "Fieldguide's pictures database was damaged: it was set aside and made again, and its pictures download again " +
    'at the next sync. Nothing of your work was in it; try again.',
  none:
    "Fieldguide's database reported damage, but a full check of its files found none, so nothing was set aside. " +
    'Nothing saved is lost; try again.',
} as const;

export interface DispatcherOptions {
  log: (message: string) => void;
  guard?: StorageGuard;
  /** Whether a technician is signed in now (methods declared `technician: true` need one). */
  signedIn?: () => boolean;
}

/**
 * Calls a method of `methods` by name with untrusted arguments, as both shells do, by its declaration
 * (core/methods.ts): an unknown name is `not_found`, arguments that do not match the method's schema are
 * `invalid_input`, a technician's method with nobody signed in is `unauthorized`, an AppFailure becomes its
 * Result and anything else `internal` (logged; never thrown across the boundary).
 */
export function dispatcher(
  methods: Readonly<Record<string, BoundMethod>>,
  { log, guard, signedIn = () => true }: DispatcherOptions,
): (method: string, args: unknown) => Promise<Result<unknown>> {
  return async (method, args) => {
    const declared = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!declared) return { ok: false, error: { code: 'not_found', message: `No App API method "${method}"` } };
    if (nestedDeeperThan(args, MAX_ARGUMENT_DEPTH)) {
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message: `Invalid arguments for ${method}: nested deeper than ${MAX_ARGUMENT_DEPTH} levels`,
        },
      };
    }
    const parsed = declared.input.safeParse(args ?? []);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message:
            `Invalid arguments for ${method}: ` +
            `${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}` : 'invalid'}`,
        },
      };
    }
    if (declared.technician && !signedIn()) {
      return { ok: false, error: { code: 'unauthorized', message: 'Sign in to a site first.' } };
    }
    // A technician's work: its commits' flush waits beside the journal's before the answer (store.ts deferFlushes).
    const call = async (): Promise<Result<unknown>> => {
      if (declared.prepare) await declared.prepare(...parsed.data);
      const run = () => declared.call(...parsed.data);
      const { value, owed } = declared.work && guard ? guard.deferFlushes(run) : { value: run(), owed: false };
      return settled(await value, owed, guard, log);
    };
    const result = await attempt(method, call, Boolean(declared.work), guard, log);
    // Refused on the full disk even from the reserve: the screens stop saying that work still saves.
    if (declared.work && !result.ok && result.error.code === 'storage_full') guard?.refused();
    return result;
  };
}

/** A call, tried again once after room is given back (work) or the pictures database is made again. */
async function attempt(
  method: string,
  call: () => Promise<Result<unknown>>,
  work: boolean,
  guard: StorageGuard | undefined,
  log: (message: string) => void,
): Promise<Result<unknown>> {
  try {
    return await call();
  } catch (first) {
    let error = first;
    // Work on a full disk: the transaction was rolled back, so once the reserve is given back it is tried again.
    if (isStorageFull(error) && work && guard?.full()) {
      try {
        return await call();
      } catch (again) {
        error = again;
      }
    }
    if (isDamage(error)) {
      const found = guard?.damaged(error) ?? 'restart';
      if (found !== 'repaired') return failure(method, error, log, guard, found);
      // Repaired at once (the pictures database made again): the call goes again, once.
      try {
        return await call();
      } catch (again) {
        error = again;
      }
    }
    return failure(method, error, log, guard, isDamage(error) ? guard?.damaged(error) : undefined);
  }
}

/**
 * An answer goes out once the work journal holds what the call changed, and the database its commits
 * (never a retry of the call: its commit stands). A full disk gives its reserve back for the journal; if
 * it still cannot be written, the database holds the work (its commit is on the disk, flushed whatever
 * became of the journal) and the journal catches up later. A disk that fails is said, and the answer is
 * not given: the disk may not hold it.
 */
async function settled(
  result: Result<unknown>,
  walOwed: boolean,
  guard: StorageGuard | undefined,
  log: (message: string) => void,
): Promise<Result<unknown>> {
  if (!guard) return result;
  try {
    await guard.settle(walOwed);
    return result;
  } catch (error) {
    if (isStorageFull(error)) {
      if (guard.full() && (await settledAgain(guard, walOwed))) return result;
      log('The disk is full: the work journal could not be written; the database holds the work.');
      return result;
    }
    guard.failed(error);
    return { ok: false, error: storageFailure(error).toAppError() };
  }
}

async function settledAgain(guard: StorageGuard, walOwed: boolean): Promise<boolean> {
  try {
    await guard.settle(walOwed);
    return true;
  } catch {
    return false;
  }
}

/** A failed call as its Result: the technician's words for what went wrong, and what to do. */
function failure(
  method: string,
  error: unknown,
  log: (message: string) => void,
  guard: StorageGuard | undefined,
  found?: DamageFound,
): Result<never> {
  if (error instanceof AppFailure) return { ok: false, error: error.toAppError() };
  if (isStorageFull(error)) return { ok: false, error: storageFull(error).toAppError() };
  if (isDiskFailure(error)) {
    guard?.failed(error);
    return { ok: false, error: storageFailure(error).toAppError() };
  }
  if (isDamage(error)) return { ok: false, error: { code: 'internal', message: DAMAGE_WORDS[found ?? 'restart'] } };
  log(`${method} failed unexpectedly: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  const message = 'Something went wrong inside Fieldguide; nothing was lost. Try again.';
  return { ok: false, error: { code: 'internal', message } };
}

/** No App API argument is nested half this deep; a hostile one nested thousands deep would overflow the checks. */
export const MAX_ARGUMENT_DEPTH = 32;

/** Whether `value` has arrays or objects nested deeper than `limit` (walked without recursion). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
