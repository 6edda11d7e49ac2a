import { API_PREFIX } from '../app.ts';

/**
 * The work-log writes whose answer has no public shape: a save of step data ("One public client saw no
 * body in the answer", api/public-shapes.md) and the transitions no public sample shows (pause, resume,
 * suspend, cancel, assume). Starts and finishes keep their answers: both have public samples.
 */
const QUIET = new RegExp(`^${API_PREFIX}/work_log/\\d+/(stepData|pause|resume|suspend|cancel|assume)$`);

/**
 * Plays a site that applies those writes and answers them with no body (204), as a real site may: the
 * client must take the write as landed and read the entry back for its revision. A refusal (409, 422, ...)
 * keeps its body: the conflict's entry is in it.
 */
export function quietWrites(fetch: (request: Request) => Response | Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const answer = await fetch(request);
    if (!answer.ok || !QUIET.test(new URL(request.url).pathname)) return answer;
    await answer.body?.cancel();
    const headers = new Headers(answer.headers);
    for (const name of ['content-type', 'content-length', 'content-encoding']) headers.delete(name);
    return new Response(null, { status: 204, headers });
  };
}
