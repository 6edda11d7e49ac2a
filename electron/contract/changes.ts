import type { Result } from './result.ts';

/** The App API of guide changes: what changed in a guide since the technician last read or worked it. */

/** One step's change: added, removed, or changed (its lines added and removed, reworded ones as both). */
export interface StepChange {
  kind: 'added' | 'removed' | 'changed';
  /** Its number among the guide's own steps: in the new revision, or in the old one for a removed step. */
  number: number;
  title: string;
  /** Plain text: the lines it has now that it did not have. */
  addedLines: string[];
  /** Plain text: the lines it had that it has no longer. */
  removedLines: string[];
  /** Pictures it shows now that it did not show. */
  newPictures: number;
  /** The labels of the fields its record (step form) asks for now that it did not. */
  addedFields: string[];
  /** The labels of the fields its record asked for that it asks no longer (a value there stays on this computer). */
  removedFields: string[];
  /** The fields its record asks for under another label now: the name the site's record uses for the value. */
  renamedFields: { from: string; to: string }[];
}

/** A release note the site published with a revision of a guide (Dozuki's guide releases). */
export interface ReleaseNote {
  releaseid: number;
  /** The revision it released. */
  revisionid: number;
  title: string;
  /** Plain text (any markup the site sent is taken out). */
  notes: string;
  /** Unix seconds, or null when the site gave no date. */
  releasedAt: number | null;
  /** Who released it, as the site names them, or null. */
  by: string | null;
}

export interface GuideChanges {
  guideid: number;
  /** The revision the technician last read, and the one stored now. */
  fromRevisionid: number;
  toRevisionid: number;
  /** Empty when the revision changed nothing the steps show (its title, its parts). */
  steps: StepChange[];
  /** The site's release notes of the revisions since the one read, newest first; empty where it has none. */
  releases: ReleaseNote[];
}

export interface ChangesApi {
  /**
   * What changed in a guide since the current technician last read it, computed here from the two stored
   * revisions, or null: nothing changed, or they had never read it (it is then remembered as read).
   */
  guideChanges(guideid: number): Promise<Result<GuideChanges | null>>;
  /** They have seen the change: the revision stored now is the one they last read. */
  seenGuideChanges(guideid: number): Promise<Result<null>>;
  /** The guides changed since the current technician last read them (the library marks them). */
  changedGuides(): Promise<Result<number[]>>;
}
