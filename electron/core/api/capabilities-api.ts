import type { ModuleState, SiteModule } from '../../contract.ts';
import { ApiError } from './errors.ts';
import type { ApiTransport } from './transport.ts';

/** Statuses by which a site says it has no such module (issue 15): not found, forbidden, no such method, not implemented. */
export const NOT_OFFERED = new Set([404, 403, 405, 501]);

/** True when an error is a site saying it lacks what was asked (not a failure worth retrying). */
export const notOffered = (error: unknown): error is ApiError => error instanceof ApiError && error.kind === 'http' && NOT_OFFERED.has(error.status ?? 0);

/**
 * One cheap question per module, answered by any site that offers it. `guideid` is a guide the site
 * lists (step forms are asked per guide); without one, step forms stay unknown.
 */
function probes(guideid: number | null): Record<SiteModule, ((t: ApiTransport, signal?: AbortSignal) => Promise<unknown>) | null> {
  const get = (path: string, query: Record<string, number> = {}) => (t: ApiTransport, signal?: AbortSignal) => t.request('GET', path, { query, ...(signal ? { signal } : {}) });
  return {
    step_forms: guideid === null ? null : get(`/step_forms/guideid/${guideid}`),
    quizzes: (t, signal) => t.request('POST', '/quizzes/getQuizzes', { json: { offset: 0, limit: 1 }, ...(signal ? { signal } : {}) }),
    work_log: get('/work_log', { limit: 1 }),
    tags: get('/tags', { limit: 1 }),
    categories: get('/categories'),
    comments: get('/comments', { limit: 1 }),
    user_media: get('/user/media/current', { limit: 1 }),
  };
}

/** How the site answered each module: offered (2xx or a refusal of the question itself), missing, members only, or unknown. */
export async function probeModules(
  transport: ApiTransport,
  guideid: number | null,
  signal?: AbortSignal,
): Promise<Map<SiteModule, { state: ModuleState; status: number | null }>> {
  const answers = new Map<SiteModule, { state: ModuleState; status: number | null }>();
  await Promise.all(
    Object.entries(probes(guideid)).map(async ([module, probe]) => {
      answers.set(module as SiteModule, probe ? await stateOf(() => probe(transport, signal)) : { state: 'unknown', status: null });
    }),
  );
  return answers;
}

async function stateOf(ask: () => Promise<unknown>): Promise<{ state: ModuleState; status: number | null }> {
  try {
    await ask();
    return { state: 'offered', status: 200 };
  } catch (error) {
    if (!(error instanceof ApiError) || error.kind !== 'http') return { state: 'unknown', status: null };
    const status = error.status ?? 0;
    if (NOT_OFFERED.has(status)) return { state: 'missing', status };
    if (status === 401) return { state: 'sign_in', status };
    // 429 or 5xx: no answer about the module. Any other refusal (400, 422) is of the question: the module is there.
    return { state: status === 429 || status >= 500 ? 'unknown' : 'offered', status };
  }
}
