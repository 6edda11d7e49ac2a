import Dexie, { type Table } from 'dexie';
import { quizDraftKey, type QuizDraft } from './quiz-draft.ts';

/** Quiz drafts in their own IndexedDB database, apart from the step-form drafts (DESIGN.md §3: drafts only). */
class QuizDraftsDb extends Dexie {
  quizDrafts!: Table<QuizDraft, string>;

  constructor() {
    super('fieldguide-quiz-drafts');
    this.version(1).stores({ quizDrafts: 'id, quizRevisionid' });
  }
}

let db: QuizDraftsDb | null = null;
const open = (): QuizDraftsDb => (db ??= new QuizDraftsDb());

/** Resolves once IndexedDB holds the draft. */
export async function keepQuizDraft(draft: QuizDraft): Promise<void> {
  await open().quizDrafts.put(draft);
}

export async function quizDraftOf(quizRevisionid: number): Promise<QuizDraft | undefined> {
  return open().quizDrafts.get(quizDraftKey(quizRevisionid));
}

/**
 * After the core confirmed the attempt: drops the draft unless it changed after `sentAt` (ms), read and
 * deleted in one transaction so a later draft is never lost with the old one.
 */
export async function dropQuizDraft(quizRevisionid: number, sentAt: number): Promise<void> {
  const d = open();
  await d.transaction('rw', d.quizDrafts, async () => {
    const draft = await d.quizDrafts.get(quizDraftKey(quizRevisionid));
    if (draft && draft.updatedAt <= sentAt) await d.quizDrafts.delete(draft.id);
  });
}
