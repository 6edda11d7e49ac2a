import Dexie, { type Table } from 'dexie';
import { earlierDraft, EARLIER_DRAFTS, makeDraft, settledBy, type Draft } from './keys.ts';

/**
 * IndexedDB in the window: drafts only (DESIGN.md §3), each technician's apart: one technician never reads
 * another's half-typed form. Synced content and the outbox live in the main process.
 */
class DraftsDb extends Dexie {
  drafts!: Table<Draft, string>;

  constructor() {
    super('fieldguide-drafts');
    this.version(1).stores({ drafts: 'id, sessionId, [sessionId+stepid]' });
    // Drafts keyed by technician; those kept before are set apart until their technician comes (drafts/owner.ts).
    this.version(2)
      .stores({ drafts: 'id, [technician+sessionId], [technician+sessionId+stepid], technician' })
      .upgrade(async (tx) => {
        const table = tx.table<Draft & { technician?: string }, string>('drafts');
        const earlier = (await table.toArray()).filter((d) => d.technician === undefined);
        await table.bulkDelete(earlier.map((d) => d.id));
        await table.bulkPut(earlier.map(earlierDraft));
      });
  }
}

let db: DraftsDb | null = null;
const open = (): DraftsDb => (db ??= new DraftsDb());

/**
 * Drafts this window could not read (IndexedDB refused: a full disk under the browser's profile, a damaged
 * one): none are restored, and the step takes typing all the same. Before, a step opened so never became
 * ready, its fields disabled with no word, and Finish… did nothing.
 */
async function readOrNone(read: () => Promise<Draft[]>): Promise<Draft[]> {
  try {
    return await read();
  } catch (error) {
    console.warn(`Drafts could not be read: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

/** Kept on every keystroke; resolves once IndexedDB has the value, rejects when it cannot be kept. */
export async function keepDraft(draft: Draft): Promise<void> {
  await open().drafts.put(draft);
}

export async function draftsOfSession(technician: string, sessionId: string): Promise<Draft[]> {
  return readOrNone(() => open().drafts.where('[technician+sessionId]').equals([technician, sessionId]).toArray());
}

export async function draftsOfStep(technician: string, sessionId: string, stepid: number): Promise<Draft[]> {
  return readOrNone(() =>
    open().drafts.where('[technician+sessionId+stepid]').equals([technician, sessionId, stepid]).toArray(),
  );
}

/**
 * After the App API confirmed a save: drops the drafts it made obsolete. Read and delete share one
 * transaction so a keystroke landing meanwhile is never deleted with them.
 */
export async function dropSavedDrafts(
  technician: string,
  sessionId: string,
  stepid: number,
  sent: { fieldGuid: string; value: string | null }[],
): Promise<void> {
  const d = open();
  try {
    await d.transaction('rw', d.drafts, async () => {
      const drafts = await d.drafts
        .where('[technician+sessionId+stepid]')
        .equals([technician, sessionId, stepid])
        .toArray();
      await d.drafts.bulkDelete(settledBy(drafts, stepid, sent));
    });
  } catch (error) {
    // The save is made: a draft left of a value saved shows as nothing to save (it equals the value).
    console.warn(`Saved drafts could not be dropped: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The drafts kept before technicians were recorded become this technician's (they were signed in then). */
export async function adoptEarlierDrafts(technician: string): Promise<void> {
  const d = open();
  await d.transaction('rw', d.drafts, async () => {
    const earlier = await d.drafts.where('technician').equals(EARLIER_DRAFTS).toArray();
    if (earlier.length === 0) return;
    await d.drafts.bulkDelete(earlier.map((e) => e.id));
    await d.drafts.bulkPut(
      earlier.map((e) => makeDraft(technician, e.sessionId, e.stepid, e.fieldGuid, e.value, e.updatedAt)),
    );
  });
}

/**
 * Drafts the technician read and let go (typed in a session the site ended before they were saved): only theirs,
 * of that session, whatever ids are asked.
 */
export async function discardDrafts(technician: string, sessionId: string, ids: readonly string[]): Promise<void> {
  const d = open();
  await d.transaction('rw', d.drafts, async () => {
    const mine = await d.drafts.where('[technician+sessionId]').equals([technician, sessionId]).primaryKeys();
    await d.drafts.bulkDelete(mine.filter((id) => ids.includes(id)));
  });
}
