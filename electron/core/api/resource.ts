/**
 * What a request asked for, by what it is: decisions compare these (the guide asked for, a work-log entry),
 * never the request's method and path as a string. The string stays in the failure for the log.
 */
export type Resource =
  | { kind: 'guide'; id: number; part: 'whole' | 'tags' | 'step-forms' }
  | { kind: 'guides' }
  | { kind: 'video'; id: number }
  | { kind: 'categories' }
  | { kind: 'quizzes' }
  | { kind: 'work-log'; entryid: number | null }
  | { kind: 'sign-in' }
  | { kind: 'upload' }
  | { kind: 'user' }
  | { kind: 'search' }
  | { kind: 'media' }
  | { kind: 'other' };

type Rule = [RegExp, (m: RegExpMatchArray) => Resource];

const RULES: readonly Rule[] = [
  [/^\/guides\/(\d+)\/tags$/, (m) => ({ kind: 'guide', id: Number(m[1]), part: 'tags' })],
  [/^\/guides\/(\d+)$/, (m) => ({ kind: 'guide', id: Number(m[1]), part: 'whole' })],
  [/^\/guides$/, () => ({ kind: 'guides' })],
  [/^\/step_forms\/guideid\/(\d+)/, (m) => ({ kind: 'guide', id: Number(m[1]), part: 'step-forms' })],
  [/^\/media\/videos\/(\d+)/, (m) => ({ kind: 'video', id: Number(m[1]) })],
  [/^\/categories/, () => ({ kind: 'categories' })],
  [/^\/quizzes/, () => ({ kind: 'quizzes' })],
  [/^\/work_log\/(\d+)/, (m) => ({ kind: 'work-log', entryid: Number(m[1]) })],
  [/^\/work_log/, () => ({ kind: 'work-log', entryid: null })],
  [/^\/user\/token$/, () => ({ kind: 'sign-in' })],
  [/^\/user\/media/, () => ({ kind: 'upload' })],
  [/^\/user/, () => ({ kind: 'user' })],
  [/^\/(search|suggest)/, () => ({ kind: 'search' })],
];

/** The resource of a request as the client names it (`GET /guides/12?x=1`); a file's address is media. */
export function resourceOf(request: string): Resource {
  const target = request.replace(/^[A-Z]+ /, '');
  if (/^https?:/i.test(target)) return { kind: 'media' };
  const path = target.split('?')[0]!;
  for (const [pattern, made] of RULES) {
    const match = path.match(pattern);
    if (match) return made(match);
  }
  return path.startsWith('/') ? { kind: 'other' } : { kind: 'media' };
}

/** Whether `resource` is guide `id` itself (not its tags or forms). */
export const isGuide = (resource: Resource, id: number): boolean =>
  resource.kind === 'guide' && resource.part === 'whole' && resource.id === id;

/** A resource in words, for messages a technician reads ("for guide 12"). */
export function resourceWords(resource: Resource): string {
  switch (resource.kind) {
    case 'guide':
      if (resource.part === 'tags') return `for the tags of guide ${resource.id}`;
      if (resource.part === 'step-forms') return `for the step forms of guide ${resource.id}`;
      return `for guide ${resource.id}`;
    case 'guides':
      return 'for the list of guides';
    case 'categories':
      return 'for the categories';
    case 'quizzes':
      return 'for the quizzes';
    case 'work-log':
      return 'for the work log';
    case 'sign-in':
      return 'to the sign-in';
    case 'upload':
      return 'for an upload';
    case 'user':
      return 'for the signed-in user';
    case 'search':
      return 'to the search';
    case 'video':
    case 'media':
    case 'other':
      return 'to a request';
    default:
      return unknownResource(resource);
  }
}

function unknownResource(resource: never): never {
  throw new Error(`No words for the resource ${JSON.stringify(resource)}.`);
}
