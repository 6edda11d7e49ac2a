import { useGuideStore } from './guide.ts';
import { useLibraryStore } from './library.ts';
import { useMarksStore } from './marks.ts';
import { useOutboxStore } from './outbox.ts';
import { useQuizStore } from './quiz.ts';
import { useScanStore } from './scan.ts';
import { useSearchStore } from './search.ts';
import { useWorklogStore } from './worklog.ts';

/**
 * Another technician works now (a switch, a sign-out): every store holding one technician's things lets
 * them go, so nothing of the previous technician stays in the window, and what the next one may read
 * (private guides) is asked for again.
 */
export function forgetPreviousTechnician(): void {
  for (const store of [
    useWorklogStore(),
    useQuizStore(),
    useOutboxStore(),
    useLibraryStore(),
    useGuideStore(),
    useSearchStore(),
    useScanStore(),
    useMarksStore(),
  ])
    store.forget();
}
