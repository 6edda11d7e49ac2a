import Dexie, { type Table } from 'dexie';
import { EARLIER_DRAFTS } from './keys.ts';
import { makeQuizDraft, quizDraftKey, type QuizDraft } from './quiz-draft.ts';

/**
 * Quiz drafts in their own IndexedDB database, apart from the step-form
 * drafts (DESIGN.md §3: drafts only), each technician's apart.
 */
class QuizDraftsDb extends Dexie {
  quizDrafts!: Table<QuizDraft, string>;

  constructor() {
    super('fieldguide-quiz-drafts');
    this.version(1).stores({ quizDrafts: 'id, quizRevisionid' });
    this.version(2)
      .stores({ quizDrafts: 'id, quizRevisionid, technician' })
      .upgrade(async (tx) => {
        const table = tx.table<QuizDraft & { technician?: string }, string>('quizDrafts');
        const earlier = (await table.toArray()).filter((d) => d.technician === undefined);
        await table.bulkDelete(earlier.map((d) => d.id));
        await table.bulkPut(
          earlier.map(({ id: _, updatedAt, ...d }) => makeQuizDraft({ ...d, technician: EARLIER_DRAFTS }, updatedAt)),
        );
      });
  }
}

let db: QuizDraftsDb | null = null;
const open = (): QuizDraftsDb => (db ??= new QuizDraftsDb());

/** Resolves once IndexedDB holds the draft. */
export async function keepQuizDraft(draft: QuizDraft): Promise<void> {
  await open().quizDrafts.put(draft);
}

export async function quizDraftOf(technician: string, quizRevisionid: number): Promise<QuizDraft | undefined> {
  return open().quizDrafts.get(quizDraftKey(technician, quizRevisionid));
}

/**
 * After the core confirmed the attempt: drops the draft unless it changed after `sentAt` (ms), read and
 * deleted in one transaction so a later draft is never lost with the old one.
 */
export async function dropQuizDraft(technician: string, quizRevisionid: number, sentAt: number): Promise<void> {
  const d = open();
  await d.transaction('rw', d.quizDrafts, async () => {
    const draft = await d.quizDrafts.get(quizDraftKey(technician, quizRevisionid));
    if (draft && draft.updatedAt <= sentAt) await d.quizDrafts.delete(draft.id);
  });
}

/** Quiz drafts kept before technicians were recorded become this technician's. */
export async function adoptEarlierQuizDrafts(technician: string): Promise<void> {
  const d = open();
  await d.transaction('rw', d.quizDrafts, async () => {
    const earlier = await d.quizDrafts.where('technician').equals(EARLIER_DRAFTS).toArray();
    if (earlier.length === 0) return;
    await d.quizDrafts.bulkDelete(earlier.map((e) => e.id));
    await d.quizDrafts.bulkPut(
      earlier.map(({ id: _, updatedAt, ...e }) => makeQuizDraft({ ...e, technician }, updatedAt)),
    );
  });
}
