import { APP_METHODS, isAppMethod, type AppApi, type Result } from '../contract.ts';
import { isDamage } from './db/damage.ts';
import { isStorageFull, storageFull } from './db/disk-space.ts';
import { methodInputs } from './method-inputs.ts';
import { AppFailure } from './result.ts';

/**
 * What a storage failure sets off: `full` gives room back (true when it did); `damaged` finds what is
 * damaged: `repaired` now (the pictures database, made again), `restart` (the main database, marked for
 * repair at the next start) or `none` (a full check found nothing: no restart would repair anything).
 */
export interface StorageGuard {
  full: () => boolean;
  damaged: (error: unknown) => DamageFound;
}
type DamageFound = 'repaired' | 'restart' | 'none';

/** A technician's work: on a full disk these go in from the reserve rather than be refused. */
const WORK_METHODS: ReadonlySet<string> = new Set(['startSession', 'transitionSession', 'saveStepData', 'attachFile', 'submitQuizAttempt', 'settleConflict']);

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

/**
 * Calls a method of `impl` by name with untrusted arguments, as both shells do: an unknown name is
 * `not_found`, arguments that do not match the method's schema are `invalid_input`, an AppFailure
 * becomes its Result and anything else `internal` (logged; never thrown across the boundary).
 */
export function dispatcher(impl: AppApi, log: (message: string) => void, guard?: StorageGuard): (method: string, args: unknown) => Promise<Result<unknown>> {
  return async (method, args) => {
    if (!isAppMethod(method)) return { ok: false, error: { code: 'not_found', message: `No App API method "${method}"` } };
    if (nestedDeeperThan(args, MAX_ARGUMENT_DEPTH)) {
      return { ok: false, error: { code: 'invalid_input', message: `Invalid arguments for ${method}: nested deeper than ${MAX_ARGUMENT_DEPTH} levels` } };
    }
    const parsed = methodInputs[method].safeParse(args ?? []);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message: `Invalid arguments for ${method}: ${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}` : 'invalid'}`,
        },
      };
    }
    const call = impl[method] as (...a: unknown[]) => Promise<Result<unknown>>;
    try {
      return await call(...(parsed.data as unknown[]));
    } catch (first) {
      let error = first;
      // Work on a full disk: the transaction was rolled back, so once the reserve is given back it is tried again.
      if (isStorageFull(error) && WORK_METHODS.has(method) && guard?.full()) {
        try {
          return await call(...(parsed.data as unknown[]));
        } catch (again) {
          error = again;
        }
      }
      if (isDamage(error)) {
        const found = guard?.damaged(error) ?? 'restart';
        if (found !== 'repaired') return failure(method, error, log, found);
        // Repaired at once (the pictures database made again): the call goes again, once.
        try {
          return await call(...(parsed.data as unknown[]));
        } catch (again) {
          error = again;
        }
      }
      return failure(method, error, log, isDamage(error) ? guard?.damaged(error) : undefined);
    }
  };
}

/** A failed call as its Result: the technician's words for what went wrong, and what to do. */
function failure(method: string, error: unknown, log: (message: string) => void, found?: DamageFound): Result<never> {
  if (error instanceof AppFailure) return { ok: false, error: error.toAppError() };
  if (isStorageFull(error)) return { ok: false, error: storageFull(error).toAppError() };
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

/** The App API as an object whose every method goes through `invoke` (validated, every failure a Result). */
export function apiOf(invoke: (method: string, args: unknown) => Promise<Result<unknown>>): AppApi {
  return Object.fromEntries(APP_METHODS.map((method) => [method, (...args: unknown[]) => invoke(method, args)])) as unknown as AppApi;
}
