import type { GuideListItem } from './guide.ts';
import type { Result } from './result.ts';

/** The App API of a technician's marks on guides: favourites, completions and "My guides". */

/** A mark the technician sets and the site keeps for them. */
export type GuideMarkKind = 'favorite' | 'completed';

/** The current technician's marks on one guide, and whether a change of each still waits to reach the site. */
export interface GuideMarks {
  guideid: number;
  favorite: boolean;
  completed: boolean;
  waiting: { favorite: boolean; completed: boolean };
}

/** A guide in "My guides": its list entry (null when the library no longer has it) and when it was marked. */
export interface MyGuide {
  guideid: number;
  guide: GuideListItem | null;
  at: number;
}

export interface MyGuides {
  favorites: MyGuide[];
  /** Guides opened or worked on here, the latest first. */
  recent: MyGuide[];
  completed: MyGuide[];
}

export interface MarksApi {
  getGuideMarks(guideid: number): Promise<Result<GuideMarks>>;
  /** Sets a mark here at once (no network needed) and queues it for the site under the current technician. */
  setGuideMark(guideid: number, mark: GuideMarkKind, on: boolean): Promise<Result<GuideMarks>>;
  /** The current technician's favourite guides' ids (for the stars of the library's rows). */
  listFavoriteGuideIds(): Promise<Result<number[]>>;
  /** Remembers that the current technician opened a guide (for "recently used"). */
  noteGuideOpened(guideid: number): Promise<Result<null>>;
  getMyGuides(): Promise<Result<MyGuides>>;
}
