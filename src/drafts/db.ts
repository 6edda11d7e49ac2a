import Dexie, { type Table } from 'dexie';
import { settledBy, type Draft } from './keys.ts';

/** IndexedDB in the window: drafts only (DESIGN.md §3). Synced content and the outbox live in the main process. */
class DraftsDb extends Dexie {
  drafts!: Table<Draft, string>;

  constructor() {
    super('fieldguide-drafts');
    this.version(1).stores({ drafts: 'id, sessionId, [sessionId+stepid]' });
  }
}

let db: DraftsDb | null = null;
const open = (): DraftsDb => (db ??= new DraftsDb());

/** Kept on every keystroke; resolves once IndexedDB has the value. */
export async function keepDraft(draft: Draft): Promise<void> {
  await open().drafts.put(draft);
}

export async function draftsOfSession(sessionId: string): Promise<Draft[]> {
  return open().drafts.where('sessionId').equals(sessionId).toArray();
}

export async function draftsOfStep(sessionId: string, stepid: number): Promise<Draft[]> {
  return open().drafts.where('[sessionId+stepid]').equals([sessionId, stepid]).toArray();
}

/**
 * After the App API confirmed a save: drops the drafts it made obsolete. Read and delete share one
 * transaction so a keystroke landing meanwhile is never deleted with them.
 */
export async function dropSavedDrafts(sessionId: string, stepid: number, sent: { fieldGuid: string; value: string | null }[]): Promise<void> {
  const d = open();
  await d.transaction('rw', d.drafts, async () => {
    const drafts = await d.drafts.where('[sessionId+stepid]').equals([sessionId, stepid]).toArray();
    await d.drafts.bulkDelete(settledBy(drafts, stepid, sent));
  });
}
