/**
 * The two dialects of API 2.0 the server plays (`--dialect`). `dozuki` is the seed's reference
 * (docs/dozuki-api-2.0.md); `ifixit` answers as iFixit's OpenAPI description of the same API says real
 * sites do: at most 50 `guideids` used, prerequisite steps inlined unless `excludePrerequisiteSteps`,
 * `{error, message}` bodies, `/suggest` without `/search`, `X-App-Id` needed to sign in, uploads on
 * `/user/media/images`, and a video step that carries only its id.
 */
export const DIALECTS = ['dozuki', 'ifixit'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** How many ids of `guideids` an iFixit site uses ("Only the first 50 ids are used"). */
export const IFIXIT_GUIDEIDS_CAP = 50;

/** The application id the demo's iFixit-dialect site accepts when none is named (`--app-id`). */
export const DEMO_APP_ID = 'fieldguide-demo';

export function parseDialect(value: string | undefined): Dialect {
  if (value === undefined) return 'dozuki';
  if ((DIALECTS as readonly string[]).includes(value)) return value as Dialect;
  throw new Error(`--dialect: unknown dialect ${value} (known: ${DIALECTS.join(', ')})`);
}
