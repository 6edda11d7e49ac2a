import type { AppApi, AppMethod, Result } from '../contract.ts';
import { changesMethods } from './changes/changes-methods.ts';
import { commentsMethods } from './comments/comments-methods.ts';
import { connectionMethods } from './connection/connection-methods.ts';
import { technicianMethods } from './connection/technician-methods.ts';
import { libraryMethods } from './library/library-methods.ts';
import { marksMethods } from './marks/marks-methods.ts';
import { bindFeature, type FeatureMethods, type MethodPolicies, type MethodTable } from './methods.ts';
import { outboxMethods } from './outbox/outbox-methods.ts';
import { quizMethods } from './quiz/quiz-methods.ts';
import { syncMethods } from './sync/sync-methods.ts';
import { worklogMethods } from './worklog/worklog-methods.ts';

/**
 * Every feature's part of the App API, by feature. This is the one list of methods: the dispatcher, both
 * shells' channels and routes, and the preload (at build time, electron.vite.config.ts) take it from here.
 */
const FEATURES = {
  connection: connectionMethods,
  technicians: technicianMethods,
  library: libraryMethods,
  sync: syncMethods,
  worklog: worklogMethods,
  outbox: outboxMethods,
  quiz: quizMethods,
  marks: marksMethods,
  comments: commentsMethods,
  changes: changesMethods,
};
type Features = typeof FEATURES;

/** What each feature's methods work with, by feature: services.ts hands each its own. */
export type FeatureDeps = { [F in keyof Features]: DepsOf<Features[F][keyof Features[F]]> };
type DepsOf<Declaration> = Declaration extends { run: (deps: infer Deps, ...args: never[]) => unknown } ? Deps : never;

type Declared = { [F in keyof Features]: keyof Features[F] }[keyof Features];
// A method of the contract that no feature declares, or one declared that the contract lacks, fails here.
const covers: [AppMethod] extends [Declared] ? ([Declared] extends [AppMethod] ? true : never) : never = true;
void covers;

const declared = Object.values(FEATURES).flatMap((methods) => Object.keys(methods));
const twice = declared.filter((name, index) => declared.indexOf(name) !== index);
if (twice.length > 0) throw new Error(`App API methods declared by two features: ${twice.join(', ')}`);

/** The App API's methods, by name. */
export const APP_METHODS = Object.freeze(declared) as readonly AppMethod[];

/** The policies a method was declared with (core/methods.ts). */
export function policiesOf(method: AppMethod): MethodPolicies {
  for (const methods of Object.values(FEATURES)) {
    if (Object.hasOwn(methods, method)) {
      const { work, technician, file } = (methods as Record<string, MethodPolicies>)[method]!;
      return { work, technician, file };
    }
  }
  throw new Error(`No App API method "${method}"`);
}

/** Every method bound to the parts its feature works with. */
export function bindMethods(deps: FeatureDeps): MethodTable {
  const table: Partial<MethodTable> = {};
  for (const feature of Object.keys(FEATURES) as (keyof Features)[]) {
    Object.assign(table, bindFeature(FEATURES[feature] as FeatureMethods<AppMethod, unknown>, deps[feature]));
  }
  return table as MethodTable;
}

/** The App API as an object whose every method goes through `invoke` (validated, every failure a Result). */
export function apiOf(invoke: (method: string, args: unknown) => Promise<Result<unknown>>): AppApi {
  return Object.fromEntries(
    APP_METHODS.map((method) => [method, (...args: unknown[]) => invoke(method, args)]),
  ) as unknown as AppApi;
}
