import { PAGE_SIZE } from '../api/guides-api.ts';
import { fetchQuizList } from '../api/quizzes-api.ts';
import type { SyncContext } from './context.ts';
import { fetchQuiz } from './guide-fetcher.ts';
import { PagingGuard } from '../api/paging.ts';

/**
 * The site's quiz list (`POST /quizzes/getQuizzes`): quizzes of courses reach the library too, not only
 * those attached to guides. Revisions already stored cost nothing but the listing.
 */
export async function syncQuizList(ctx: SyncContext): Promise<number> {
  let stored = 0;
  const guard = new PagingGuard('POST /quizzes/getQuizzes', 'quizzes');
  // The next offset is past what the page held: a site that sends more than asked is not asked for it twice.
  for (let offset = 0; ;) {
    const page = await fetchQuizList(ctx.transport, offset, ctx.signal);
    guard.next(
      offset,
      page.quizzes.map((quiz) => quiz.quizid),
    );
    offset += page.quizzes.length;
    for (const listed of page.quizzes) {
      if (listed.quizRevisionid === null || ctx.store.quizzes.revision(listed.quizRevisionid)) continue;
      const quiz = await fetchQuiz(
        ctx.transport,
        { ...listed, quizRevisionid: listed.quizRevisionid },
        () => undefined,
        ctx.signal,
      );
      ctx.store.quizzes.storeQuiz(quiz);
      stored++;
    }
    if (!page.more || page.quizzes.length < PAGE_SIZE) return stored;
  }
}
