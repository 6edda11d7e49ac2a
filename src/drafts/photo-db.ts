import Dexie, { type Table } from 'dexie';
import { draftKey } from './keys.ts';

/** Where a photo was taken for: one technician's field of one step of one session. */
export interface PhotoPlace {
  technician: string;
  sessionId: string;
  stepid: number;
  fieldGuid: string;
}

/**
 * A photo taken with the camera and not attached yet: the technician made it, and only the window held it.
 * The app dying between Take and Attach lost it (typed text was kept as a draft); it is kept here until it is
 * attached, taken again or put away.
 */
export interface TakenPhoto extends PhotoPlace {
  id: string;
  /** The file name it is attached under, from when it was taken (to the millisecond: it tells photos apart). */
  name: string;
  blob: Blob;
  takenAt: number;
}

/** Photos taken in their own IndexedDB database, apart from the typed drafts (DESIGN.md §3: drafts only). */
class TakenPhotosDb extends Dexie {
  photos!: Table<TakenPhoto, string>;

  constructor() {
    super('fieldguide-taken-photos');
    this.version(1).stores({ photos: 'id, technician' });
  }
}

let db: TakenPhotosDb | null = null;
const open = (): TakenPhotosDb => (db ??= new TakenPhotosDb());

const idOf = (place: PhotoPlace): string => draftKey(place.technician, place.sessionId, place.stepid, place.fieldGuid);

/** Resolves once IndexedDB holds the photo (one per field: a photo taken again replaces it); rejects if it cannot. */
export async function keepTakenPhoto(
  place: PhotoPlace,
  photo: { name: string; blob: Blob; takenAt: number },
): Promise<void> {
  const { technician, sessionId, stepid, fieldGuid } = place;
  await open().photos.put({ id: idOf(place), technician, sessionId, stepid, fieldGuid, ...photo });
}

/** The photo taken for this place and not attached, if any (none when IndexedDB cannot be read). */
export async function takenPhotoOf(place: PhotoPlace): Promise<TakenPhoto | undefined> {
  try {
    return await open().photos.get(idOf(place));
  } catch (error) {
    console.warn(`Photos taken could not be read: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Drops the photo once attached or put away, unless another was taken since (`takenAt` tells them apart). */
export async function dropTakenPhoto(place: PhotoPlace, takenAt: number): Promise<void> {
  const d = open();
  try {
    await d.transaction('rw', d.photos, async () => {
      const kept = await d.photos.get(idOf(place));
      if (kept && kept.takenAt === takenAt) await d.photos.delete(kept.id);
    });
  } catch (error) {
    // Left kept: it shows again on its step, where the technician can put it away.
    console.warn(`A photo taken could not be dropped: ${error instanceof Error ? error.message : String(error)}`);
  }
}
