import type { z } from 'zod';
import type { AppApi, AppMethod, Result } from '../contract.ts';
import { ok } from './result.ts';

/** What the dispatcher (invoke.ts) and the shells do around a method, besides checking its arguments. */
export interface MethodPolicies {
  /** A technician's work: on a full disk it goes in from the reserve rather than be refused. */
  work?: true;
  /** Only for a signed-in technician: refused as `unauthorized` before it runs when nobody is. */
  technician?: true;
  /** Its arguments carry a file as base64: the web shell takes a body up to the attachment limit. */
  file?: true;
}

type ArgsOf<M extends AppMethod> = Parameters<AppApi[M]>;
type ValueOf<M extends AppMethod> = Awaited<ReturnType<AppApi[M]>> extends Result<infer T> ? T : never;

/**
 * One App API method as its feature declares it: the schema of its arguments (a zod tuple: the renderer
 * is not trusted), its policies, and its body, which gets the feature's parts and the checked arguments
 * and answers the value (an AppFailure thrown is the technician's error; invoke.ts makes both a Result).
 */
export interface MethodDeclaration<M extends AppMethod, Deps> extends MethodPolicies {
  input: z.ZodType<ArgsOf<M>>;
  /**
   * What must be on the disk before the body commits (a photo's file), written and flushed on the thread
   * pool first, with the same arguments. The body then runs as any technician's work does (invoke.ts): its
   * synchronous part's commits flushed beside the journal before the answer, nothing held on the main thread.
   */
  prepare?: (deps: Deps, ...args: ArgsOf<M>) => Promise<void>;
  run: (deps: Deps, ...args: ArgsOf<M>) => ValueOf<M> | Promise<ValueOf<M>>;
}

/** A feature's methods: the names are its slice of the contract, each signature is the contract's. */
export type FeatureMethods<M extends AppMethod, Deps> = { [K in M]: MethodDeclaration<K, Deps> };

/**
 * Declares a feature's part of the App API, each method once. `M` names the methods (the feature's slice
 * of the contract, `keyof WorklogApi`): one missing, one extra, an argument schema or a body that does not
 * match the contract's signature, each is a type error.
 */
export function defineMethods<M extends AppMethod, Deps>(methods: FeatureMethods<M, Deps>): FeatureMethods<M, Deps> {
  return methods;
}

/** A method ready to call: its schema and policies, its body bound to the feature's parts. */
export interface BoundMethod extends MethodPolicies {
  input: z.ZodType<unknown[]>;
  /** Awaited before `call`, with the same arguments (MethodDeclaration.prepare). */
  prepare?: (...args: unknown[]) => Promise<void>;
  call: (...args: unknown[]) => Promise<Result<unknown>>;
}

export type MethodTable = Readonly<Record<AppMethod, BoundMethod>>;

/** Binds each method of a feature to the parts it works with. */
export function bindFeature<M extends AppMethod, Deps>(
  methods: FeatureMethods<M, Deps>,
  deps: Deps,
): Record<M, BoundMethod> {
  const bound = {} as Record<M, BoundMethod>;
  for (const name of Object.keys(methods) as M[]) {
    const { input, run, prepare, ...policies } = methods[name] as MethodDeclaration<M, Deps>;
    const body = run as (deps: Deps, ...args: unknown[]) => unknown;
    const before = prepare as ((deps: Deps, ...args: unknown[]) => Promise<void>) | undefined;
    bound[name] = {
      ...policies,
      input: input as z.ZodType<unknown[]>,
      ...(before ? { prepare: (...args: unknown[]) => before(deps, ...args) } : {}),
      call: async (...args) => ok(await body(deps, ...args)),
    };
  }
  return bound;
}
