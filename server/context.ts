import type { Db } from './db/types.ts';

export interface ServerOptions {
  /** Serve `/__test/*` (audit log, settable clock) and record every applied mutation. */
  readonly testHooks: boolean;
}

/** Unix seconds. Under test hooks a fixed time can be set; `null` returns to the real clock. */
export interface Clock {
  now(): number;
  set(fixed: number | null): void;
}

export interface ServerContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly options: ServerOptions;
}

export function systemClock(): Clock {
  let fixed: number | null = null;
  return {
    now: () => fixed ?? Math.floor(Date.now() / 1000),
    set(value) {
      fixed = value;
    },
  };
}

export function createContext(db: Db, options: Partial<ServerOptions> = {}, clock: Clock = systemClock()): ServerContext {
  return { db, clock, options: { testHooks: options.testHooks ?? false } };
}
