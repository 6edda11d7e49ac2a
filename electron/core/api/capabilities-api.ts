import type { ModuleState, SiteModule } from '../../contract.ts';
import { classify, notThere, unknownKind, type Failure } from './failure.ts';
import type { ApiTransport } from './transport.ts';

/**
 * The failure when a site says it has no such module (issue 15): gone, forbidden, no such method, not
 * implemented (failure.ts, notThere); null for any other failure (one that may pass, say).
 */
export function notOffered(error: unknown): Extract<Failure, { status: number | null }> | null {
  const failure = classify(error);
  return notThere(failure) ? failure : null;
}

/**
 * Where the two dialects of API 2.0 answer a module at different endpoints (DESIGN.md §7): the site's
 * search at the reference's `/search/{q}` or iFixit's `/suggest/{q}`; uploads at the reference's
 * `/user/media/uploads` or iFixit's `/user/media/images`. Kept per site (`site_modules.via`).
 */
export type ModuleVia = 'search' | 'suggest' | 'uploads' | 'images';

/** What a site answered for one module, and at which endpoint when the dialects differ. */
export interface ModuleAnswer {
  state: ModuleState;
  status: number | null;
  via?: ModuleVia;
}

type Probe = (t: ApiTransport, signal?: AbortSignal) => Promise<unknown>;

/** A probe per endpoint a module may answer at, tried in turn while the site says it has none there. */
type Probes = { via?: ModuleVia; ask: Probe }[];

/**
 * One cheap question per module, answered by any site that offers it. `guideid` is a guide the site
 * lists (step forms are asked per guide); without one, step forms stay unknown.
 */
function probes(guideid: number | null): Record<SiteModule, Probes | null> {
  const get =
    (path: string, query: Record<string, number | string> = {}): Probe =>
    (t, signal) =>
      t.request('GET', path, { query, ...(signal ? { signal } : {}) });
  return {
    step_forms: guideid === null ? null : [{ ask: get(`/step_forms/guideid/${guideid}`) }],
    quizzes: [
      {
        ask: (t, signal) =>
          t.request('POST', '/quizzes/getQuizzes', { json: { offset: 0, limit: 1 }, ...(signal ? { signal } : {}) }),
      },
    ],
    work_log: [{ ask: get('/work_log', { limit: 1 }) }],
    tags: [{ ask: get('/tags', { limit: 1 }) }],
    categories: [{ ask: get('/categories') }],
    comments: [{ ask: get('/comments', { limit: 1 }) }],
    user_media: [
      { via: 'uploads', ask: get('/user/media/current', { limit: 1 }) },
      { via: 'images', ask: get('/user/media/images', { limit: 1 }) },
    ],
    search: [
      { via: 'search', ask: get('/search/fieldguide', { filter: 'guide', limit: 1 }) },
      { via: 'suggest', ask: get('/suggest/fieldguide', { doctypes: 'guide' }) },
    ],
  };
}

/**
 * How the site answered each module: offered (2xx or a refusal
 * of the question itself), missing, members only, or unknown.
 */
export async function probeModules(
  transport: ApiTransport,
  guideid: number | null,
  signal?: AbortSignal,
): Promise<Map<SiteModule, ModuleAnswer>> {
  const answers = new Map<SiteModule, ModuleAnswer>();
  await Promise.all(
    Object.entries(probes(guideid)).map(async ([module, endpoints]) => {
      answers.set(
        module as SiteModule,
        endpoints ? await firstOffered(transport, endpoints, signal) : { state: 'unknown', status: null },
      );
    }),
  );
  return answers;
}

/** The first endpoint the site answers for a module; missing when it has none of them. */
async function firstOffered(transport: ApiTransport, endpoints: Probes, signal?: AbortSignal): Promise<ModuleAnswer> {
  let answer: ModuleAnswer = { state: 'unknown', status: null };
  for (const { via, ask } of endpoints) {
    answer = { ...(await stateOf(() => ask(transport, signal))), ...(via ? { via } : {}) };
    if (answer.state !== 'missing') return answer;
  }
  const { via: _none, ...missing } = answer;
  return missing;
}

async function stateOf(ask: () => Promise<unknown>): Promise<{ state: ModuleState; status: number | null }> {
  try {
    await ask();
    return { state: 'offered', status: 200 };
  } catch (error) {
    return moduleState(classify(error));
  }
}

function moduleState(failure: Failure): { state: ModuleState; status: number | null } {
  switch (failure.kind) {
    case 'gone':
    case 'forbidden':
    case 'not-offered':
      return { state: 'missing', status: failure.status };
    case 'signed-out':
      return { state: 'sign_in', status: failure.status };
    // A busy or failing site says nothing of the module. Any other refusal is of the question: the module is there.
    case 'busy':
    case 'site-error':
      return { state: 'unknown', status: failure.status };
    case 'conflict':
    case 'refused':
      return { state: 'offered', status: failure.status };
    case 'unreachable':
    case 'timeout':
    case 'unexpected':
    case 'local':
      return { state: 'unknown', status: null };
    default:
      return unknownKind(failure);
  }
}
