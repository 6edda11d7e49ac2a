import type { SiteComment } from './comments.ts';

/** A guide as the library keeps it: its list entry, summary, steps, forms, media and quizzes. */

/** URL variants of one image (reference 2.2); the renderer asks the shell for the local copy by URL. */
export interface ImageVariants {
  id: number;
  thumbnail?: string;
  standard?: string;
  medium?: string;
  large?: string;
  original?: string;
}

/** The guide types iFixit's OpenAPI description lists (`GuideType`); a Dozuki site has the first seven. */
export type GuideType =
  'replacement' | 'installation' | 'repair' | 'disassembly' | 'teardown' | 'technique' | 'maintenance' | 'how-to';

export interface GuideListItem {
  guideid: number;
  title: string;
  category: string;
  subject: string;
  type: string;
  image: ImageVariants | null;
  flags: string[];
  modifiedDate: number;
  /** `full`: the whole guide, its forms, quizzes and media are on this computer; `summary`: only this entry. */
  offline: 'full' | 'summary';
  /**
   * Its list picture is on this computer. A list shows the picture only then (a plain tile otherwise),
   * so it never asks the media route for one that is not there; rows are read again as pictures land.
   */
  thumbnailStored: boolean;
}

/** What the library keeps of every guide, whole or not: its list entry, its summary and a stored picture. */
export interface GuideSummary extends GuideListItem {
  summary: string;
  /** The best stored picture of the guide (its step size, else its thumbnail), or null when none is here. */
  picture: string | null;
}

export interface GuideFlag {
  flagid: string;
  title: string;
  text: string;
}

export interface GuideItem {
  text: string;
  quantity: number;
  url: string | null;
  notes: string | null;
  thumbnail: string | null;
  /** Not needed for every repair (the site's `isoptional`). */
  optional: boolean;
}

export interface GuideLine {
  lineid: number | null;
  bullet: string;
  level: number;
  /** Server HTML: the renderer shows it only through DOMPurify. */
  textRendered: string;
}

export interface VideoEncoding {
  url: string;
  format: string;
  width: number | null;
  height: number | null;
  /** Its size in bytes, when the site says. */
  bytes?: number;
}

/**
 * A step's picture, video or embed. A video's encodings are in the order this laptop prefers them: the
 * first is the one the sync keeps (shared/media.ts, fittingEncoding). An embed is shown as its title and a
 * link (`url`, http or https), never inside the app: it needs the network.
 */
export type StepMedia =
  | { type: 'image'; images: ImageVariants[] }
  | {
      type: 'video';
      poster: ImageVariants | null;
      encodings: VideoEncoding[];
      /** The site is still preparing it (iFixit's `meta.state` "processing"): no playable file yet. */
      preparing?: true;
    }
  | { type: 'embed'; html: string; title: string | null; url: string | null }
  | { type: 'none' };

export type StepFieldType =
  'Text Input' | 'Text Area' | 'Numeric Input' | 'Checkbox' | 'Radios' | 'Select' | 'Image' | 'Video' | 'Document';

export interface StepFormField {
  /** Stable across revisions of the field. */
  fieldGuid: string;
  /** Changes with each revision; work data is keyed by it on the wire. */
  fieldRevisionid: number;
  type: StepFieldType;
  label: string;
  placeholder: string;
  textarea: string;
  options: string[];
}

export interface StepForm {
  formRevisionid: number;
  stepid: number;
  fields: StepFormField[];
}

export interface GuideStep {
  stepid: number;
  /**
   * The guide the step belongs to: the guide's own id, or a prerequisite guide's for the steps shown
   * first, under "Before you begin: <its title>" (GuideDetail.prerequisites names it).
   */
  guideid: number;
  revisionid: number;
  /** Its place within its own guide (a prerequisite's steps count within the prerequisite). */
  orderby: number;
  title: string;
  lines: GuideLine[];
  media: StepMedia;
  form: StepForm | null;
  /** The site's comments on the step, oldest first (absent from guides stored before comments were kept). */
  comments?: SiteComment[];
  /**
   * The language its title and lines are in, in a guide read in a translation: the translation's, or the
   * site's for a prerequisite's step the site has not translated (absent: the guide's `language`).
   */
  langid?: string;
}

export interface GuideDocument {
  id: number | null;
  title: string;
  /** The file: what the sync keeps, and what opens offline. */
  url: string;
  /** The site's page that shows it (`view_url`), opened online; null when the site has none. */
  viewUrl: string | null;
  /** Its pages, when the site says. */
  pages: number | null;
  /** Whether this computer has the file, as the guide is read (absent where it is not asked). */
  kept?: boolean;
}

export interface QuizRef {
  quizid: number;
  quizRevisionid: number;
  title: string;
  passingScore: number | null;
}

export interface GuideDetail {
  guideid: number;
  revisionid: number;
  title: string;
  category: string;
  subject: string;
  type: string;
  difficulty: string | null;
  timeRequired: string | null;
  /** The time the work takes, in seconds, when the site says (`time_required_min`/`_max`). */
  timeRange: { min: number; max: number } | null;
  author: string | null;
  image: ImageVariants | null;
  /** Server HTML: shown only through DOMPurify. */
  introductionRendered: string;
  conclusionRendered: string;
  flags: GuideFlag[];
  parts: GuideItem[];
  tools: GuideItem[];
  /**
   * Guides to follow first, in order: each is kept as a guide of its own, and its steps open `steps`
   * (nested prerequisites before the guide that needs them), each named by its own `guideid`.
   */
  prerequisites: {
    guideid: number;
    title: string;
    /** The language its title (and its steps) are in, in a guide read in a translation (as GuideStep.langid). */
    langid?: string;
  }[];
  documents: GuideDocument[];
  /** The prerequisites' steps first, in their order, then the guide's own steps in its order. */
  steps: GuideStep[];
  tags: string[];
  quizzes: QuizRef[];
  /** The site's comments on the guide itself, oldest first (absent: stored before comments were kept). */
  comments?: SiteComment[];
  modifiedDate: number;
  url: string | null;
  /**
   * True for a guide outside the offline scope read from the site just now: not kept on this computer
   * (no forms, quizzes or work sessions offline); its media come from the site through the media route.
   */
  readFromSite?: boolean;
  /**
   * The language this text is in (`langid`), and whether it is the site's default shown because the guide
   * has no translation into the technician's language (`fallback`); null when the site does not say. `pending`:
   * shown so because no sync has read the guide in that language yet (not "Not translated": a walk in German
   * was told so, offline, of a guide the site has in German).
   */
  language?: { langid: string; fallback: boolean; pending?: boolean } | null;
}
