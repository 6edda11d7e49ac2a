import type { GuideDetail, GuideListItem, GuideSummary } from './guide.ts';
import type { Result } from './result.ts';

/** The App API of the library: what is stored, read and searched, in which language, for which screen. */

export interface LibraryQuery {
  /** A category name; guides of its subcategories are included. */
  category?: string;
  type?: string;
  tag?: string;
  offlineOnly?: boolean;
  /** Only these guides (summary or whole): a picker naming the guides it holds. */
  guideids?: number[];
  offset?: number;
  limit?: number;
}

export interface LibraryPage {
  total: number;
  items: GuideListItem[];
}

/** A tag of the stored guides, with how many carry it (the library's tag filter suggests these). */
export interface TagCount {
  tag: string;
  guides: number;
}

export interface CategoryNode {
  name: string;
  title: string;
  /** Guides in this category and below. */
  guideCount: number;
  children: CategoryNode[];
}

/** A language the site's guides are read in. */
export interface SiteLanguage {
  /** Two letters (`en`, `de`). */
  langid: string;
  /** Its name in its own words (`Deutsch`), from the laptop's language names. */
  name: string;
}

/** The site's languages, and the one the current technician reads guides in. */
export interface LanguageState {
  languages: SiteLanguage[];
  /** The site's own language: what guides without a translation are shown in; null before a sync. */
  siteDefault: string | null;
  /** The technician's choice; null: the site's own. */
  chosen: string | null;
}

export interface SearchQuery {
  text: string;
  /** `auto`: the site's search when online, the local index otherwise. */
  where?: 'auto' | 'local' | 'site';
  limit?: number;
  offset?: number;
}

export interface SearchResults {
  source: 'local' | 'site';
  total: number;
  items: (GuideListItem & { snippet: string | null })[];
  /** Why local results stand where the site's were asked (its search failed, is missing, or is away), in calm words. */
  note?: string | null;
}

export interface LibraryApi {
  listGuides(query: LibraryQuery): Promise<Result<LibraryPage>>;
  getCategories(): Promise<Result<CategoryNode[]>>;
  /** Tags of the guides stored whole, most used first. */
  listTags(): Promise<Result<TagCount[]>>;
  /**
   * The stored guide; with `revisionid`, that revision when it is kept (a session pins the one it began on).
   * A guide kept as a summary only is read from the site while it answers (`readFromSite`); otherwise
   * the answer is `offline` with `details.offline === 'summary'` (getGuideSummary has what is kept).
   */
  getGuide(guideid: number, revisionid?: number): Promise<Result<GuideDetail>>;
  /** What is kept of any guide of the library, whole or not: its summary, and a picture when one is stored. */
  getGuideSummary(guideid: number): Promise<Result<GuideSummary>>;
  search(query: SearchQuery): Promise<Result<SearchResults>>;
  /** The site's languages and the current technician's choice. */
  getLanguages(): Promise<Result<LanguageState>>;
  /** The current technician reads guides in `langid` (null: the site's own); a sync then fetches them in it. */
  setLanguage(langid: string | null): Promise<Result<LanguageState>>;
  /** The window's screen in device pixels: the sync keeps the video encoding that fits it. */
  setDisplay(display: { width: number; height: number }): Promise<Result<null>>;
}
