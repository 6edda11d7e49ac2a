import type { GuideDetail, GuideListItem, QuizRevision, ReleaseNote, StepForm } from '../../../contract.ts';
import { SHOWN_VARIANTS } from '../../../shared/media.ts';

/** A row of `guides`, as the library list and the search read it. */
export interface GuideRow {
  guideid: number;
  title: string;
  category: string;
  subject: string;
  type: string;
  flags: string;
  image: string | null;
  modified_date: number;
  stored_revisionid: number | null;
  /** 1 when the list picture is downloaded (THUMBNAIL_STORED). */
  thumbnail_stored: number;
}

/**
 * A column for a query over `guides AS g`: whether the guide's list picture is stored. One lookup by
 * primary key in `media` per row read, so the list never draws a picture that is not there (a 404).
 */
export const THUMBNAIL_STORED =
  `EXISTS (SELECT 1 FROM media tm WHERE tm.url = json_extract(g.image, ` +
  `'$.${SHOWN_VARIANTS.list}') AND tm.status = 'done') AS thumbnail_stored`;

export const listItemOf = (row: GuideRow): GuideListItem => ({
  guideid: row.guideid,
  title: row.title,
  category: row.category,
  subject: row.subject,
  type: row.type,
  image: row.image ? (JSON.parse(row.image) as GuideListItem['image']) : null,
  flags: JSON.parse(row.flags) as string[],
  modifiedDate: row.modified_date,
  offline: row.stored_revisionid === null ? 'summary' : 'full',
  thumbnailStored: row.thumbnail_stored === 1,
});

/** Who reads the library: the current technician (null: nobody signed in, public guides only). */
export interface GuideReader {
  userid: number;
  admin: boolean;
}

/**
 * The condition under which a reader may see a guide, as the site decides it (server's canViewGuide):
 * public guides for everyone, a private one for admins and its own author. `table` is the guides table's
 * name or alias in the statement; the two values go with it, in order.
 */
export function readableBy(reader: GuideReader | null, table = 'guides'): { clause: string; params: [number, number] } {
  return {
    clause: `(${table}.public = 1 OR ? = 1 OR ${table}.author_userid = ?)`,
    params: [reader?.admin ? 1 : 0, reader?.userid ?? -1],
  };
}

/** A guide summary from the site's listing, as it is kept. */
export interface SummaryRow {
  guideid: number;
  revisionid: number;
  title: string;
  category: string;
  subject: string;
  type: string;
  summary: string;
  flags: string[];
  image: GuideListItem['image'];
  public: boolean;
  /** Who wrote it: with `public`, who may read a private guide. */
  authorUserid: number | null;
  modifiedDate: number;
}

/**
 * A stored guide as this version reads it. One kept by an earlier version is read with what it lacks:
 * its steps are its own, its documents have no page of their own on the site, its parts are not
 * optional, its time is the text alone.
 */
export function readDetail(json: string): GuideDetail {
  const detail = JSON.parse(json) as GuideDetail;
  return {
    ...detail,
    timeRange: detail.timeRange ?? null,
    parts: detail.parts.map((item) => ({ ...item, optional: item.optional ?? false })),
    tools: detail.tools.map((item) => ({ ...item, optional: item.optional ?? false })),
    documents: detail.documents.map((doc) => ({ ...doc, viewUrl: doc.viewUrl ?? null, pages: doc.pages ?? null })),
    steps: detail.steps.map((step) => ({
      ...step,
      guideid: step.guideid ?? detail.guideid,
      media:
        step.media.type === 'embed'
          ? { ...step.media, title: step.media.title ?? null, url: step.media.url ?? null }
          : step.media,
    })),
  };
}

export interface StoredGuide {
  detail: GuideDetail;
  forms: StepForm[];
  quizzes: QuizRevision[];
  searchText: { title: string; summary: string; body: string };
  /** What the guide's views show: needed whatever the picture quality. */
  mediaUrls: string[];
  /** Which of them to download first (its library picture) and last (videos, documents); the rest between. */
  mediaOrder?: { first: string[]; last: string[] };
  /** Its step pictures' zoom variants, needed only at their picture quality (media-repo.ts, NeededAt). */
  zoomUrls?: { large: string[]; original: string[] };
  /** The languages the site says the guide can be read in (not stored with it: the sync learns the site's). */
  languages?: string[];
  /** Its release notes, read when a technician had read an older revision; absent: not read this time. */
  releases?: ReleaseNote[];
}
