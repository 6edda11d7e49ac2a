/**
 * The modules a real API 2.0 site may lack (a Dozuki site without step forms, iFixit without a work log).
 * The reference server offers them all unless told `--without`; a module left out answers as a site that
 * never had it: 404 on every one of its endpoints.
 */
export const SITE_MODULES = [
  'step_forms',
  'quizzes',
  'work_log',
  'tags',
  'categories',
  'comments',
  'user_media',
  'search',
] as const;
export type ServerModule = (typeof SITE_MODULES)[number];

export function parseModules(list: string): ServerModule[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(SITE_MODULES as readonly string[]).includes(name))
      throw new Error(`--without: unknown module ${name} (known: ${SITE_MODULES.join(', ')})`);
  }
  return names as ServerModule[];
}
