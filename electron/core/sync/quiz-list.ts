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
      if (listed.quizRevisionid === null) continue;
      const known = ctx.store.quizzes.revision(listed.quizRevisionid);
      // The pass mark is the quiz's, not its revision's: one the site raised reaches a revision kept here (a
      // quiz walk: "pass mark 70%" stood after the site's was 90%, and the site recorded a pass as a fail).
      if (known) {
        if (listed.passingScore !== null && listed.passingScore !== known.passingScore)
          ctx.store.quizzes.setPassingScore(listed.quizRevisionid, listed.passingScore);
        continue;
      }
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
