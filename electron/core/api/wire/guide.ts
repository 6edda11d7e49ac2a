import { z } from 'zod';
import { orAbsent, wireBool, wireInt, wireNumber, wireText } from './lenient.ts';
import { commentListWire } from './comment.ts';
import { imageWire } from './user.ts';

// Wire shapes of guides (reference 2.9, 2.10; public-shapes.md "Guides"). Lenient where real servers
// differ (nullable, optional, `[]` or `""` for missing, numbers as strings, extra keys kept out: see
// test/fixtures/real), strict where the client depends on a field.

const flagRef = z.union([z.string(), z.object({ flagid: z.string() }).loose()]);

/** Guide summary (list entries, reference 2.9). */
export const guideSummaryWire = z
  .object({
    guideid: wireInt,
    title: wireText,
    category: orAbsent(z.string()),
    subject: orAbsent(wireText),
    type: orAbsent(z.string()),
    locale: orAbsent(z.string()),
    revisionid: wireInt,
    modified_date: wireNumber,
    prereq_modified_date: orAbsent(wireNumber),
    public: orAbsent(wireBool),
    /** The author: with `public`, who may read a private guide. */
    userid: orAbsent(wireInt),
    flags: orAbsent(z.array(flagRef)),
    image: orAbsent(imageWire),
    url: orAbsent(z.string()),
    summary: orAbsent(wireText),
    difficulty: orAbsent(z.string()),
    isArchived: wireBool.optional(),
  })
  .loose();
export type GuideSummaryWire = z.infer<typeof guideSummaryWire>;

export const guideSummaryListWire = z.array(guideSummaryWire);

const lineWire = z
  .object({
    lineid: orAbsent(wireInt),
    bullet: orAbsent(z.string()),
    level: orAbsent(wireInt),
    text_raw: orAbsent(wireText),
    text_rendered: orAbsent(wireText),
  })
  .loose();

const encodingWire = z
  .object({
    url: z.string(),
    format: orAbsent(z.string()),
    mime: orAbsent(z.string()),
    width: orAbsent(wireNumber),
    height: orAbsent(wireNumber),
    /** Bytes, when the site says (the reference server does; iFixit's encodings do not). */
    size: orAbsent(wireNumber),
  })
  .loose();

/** The encodings that read: one without its address (iFixit's description requires none of its fields) is of no use. */
const encodingListWire = z
  .array(z.unknown())
  .transform((list) => list.flatMap((item) => encodingWire.safeParse(item).data ?? []));

/**
 * A video (`GET /media/videos/{id}`, and a video step's `data`); a step may carry only its `videoid`. A poster
 * that does not read is none (iFixit's may be null, its `image` is not required): the video still plays.
 */
const videoDataWire = z
  .object({
    videoid: orAbsent(wireInt),
    image: orAbsent(z.union([imageWire, z.object({ image: imageWire }).loose()])).catch(null),
    encodings: orAbsent(encodingListWire),
    /** iFixit's transcoder's report: `state` is `finished`, `processing` or `failed`. */
    meta: orAbsent(z.object({ state: orAbsent(z.string()) }).loose()).catch(null),
  })
  .loose();

const stepMediaWire = z
  .object({
    type: z.string(),
    data: z.unknown(),
  })
  .loose();

const stepWire = z
  .object({
    stepid: wireInt,
    /** The guide the step is of: a prerequisite's, for steps iFixit inlines (unless `excludePrerequisiteSteps`). */
    guideid: orAbsent(wireInt),
    revisionid: orAbsent(wireInt),
    orderby: orAbsent(wireInt),
    title: orAbsent(wireText),
    lines: orAbsent(z.array(lineWire)),
    media: orAbsent(stepMediaWire),
    comments: commentListWire,
  })
  .loose();

const itemWire = z
  .object({
    text: orAbsent(wireText),
    quantity: orAbsent(z.union([z.number(), z.string()])),
    url: orAbsent(z.string()),
    notes: orAbsent(wireText),
    thumbnail: orAbsent(z.string()),
    isoptional: orAbsent(wireBool),
  })
  .loose();

const flagWire = z.union([
  z.string(),
  z.object({ flagid: z.string(), title: orAbsent(z.string()), text: orAbsent(z.string()) }).loose(),
]);

const documentWire = z
  .object({
    id: orAbsent(wireInt),
    documentid: orAbsent(wireInt),
    title: orAbsent(wireText),
    text: orAbsent(wireText),
    url: orAbsent(z.string()),
    download_url: orAbsent(z.string()),
    /** The site's page for it, site-relative on iFixit (`/Document/{guid}/{name}`). */
    view_url: orAbsent(z.string()),
    pages: orAbsent(wireInt),
  })
  .loose();

const prerequisiteWire = z
  .object({ guideid: wireInt, title: orAbsent(wireText), revisionid: orAbsent(wireInt) })
  .loose();

/** A guide's author: a user object, or `{userid, text}` as older iFixit answers have it (pyfixit). */
const authorWire = z
  .object({ userid: orAbsent(wireInt), username: orAbsent(wireText), text: orAbsent(wireText) })
  .loose();

/** Full guide (`GET /guides/{guideid}`). */
export const guideWire = z
  .object({
    guideid: wireInt,
    revisionid: wireInt,
    title: wireText,
    category: orAbsent(z.string()),
    subject: orAbsent(wireText),
    type: orAbsent(z.string()),
    difficulty: orAbsent(z.string()),
    time_required: orAbsent(wireText),
    time_required_min: orAbsent(wireNumber),
    time_required_max: orAbsent(wireNumber),
    author: orAbsent(authorWire),
    image: orAbsent(imageWire),
    introduction_rendered: orAbsent(wireText),
    conclusion_rendered: orAbsent(wireText),
    summary: orAbsent(wireText),
    flags: orAbsent(z.array(flagWire)),
    parts: orAbsent(z.array(itemWire)),
    tools: orAbsent(z.array(itemWire)),
    prerequisites: orAbsent(z.array(prerequisiteWire)),
    documents: orAbsent(z.array(documentWire)),
    steps: z.array(stepWire),
    modified_date: orAbsent(wireNumber),
    public: orAbsent(wireBool),
    url: orAbsent(z.string()),
    /** The language of the answer (iFixit falls back to the source language when a guide has no translation). */
    langid: orAbsent(z.string()),
    locale: orAbsent(z.string()),
    available_langids: z.array(z.string()).optional().catch(undefined),
    // Tags, when the guide carries them (the tags call is then not needed); `[]` is an answer: no tags.
    tags: z.array(z.string()).optional().catch(undefined),
    comments: commentListWire,
  })
  .loose();
export type GuideWire = z.infer<typeof guideWire>;
export type StepWire = z.infer<typeof stepWire>;

export const videoMediaWire = videoDataWire;
export type VideoWire = z.infer<typeof videoDataWire>;
export const imageListWire = z.array(imageWire);
/** An embed step's data: its HTML, and on iFixit its title (`filename`) and page (`view_url`). */
export const embedWire = z
  .object({
    html: z.string().nullish(),
    filename: orAbsent(wireText),
    title: orAbsent(wireText),
    view_url: orAbsent(z.string()),
    url: orAbsent(z.string()),
  })
  .loose();

/**
 * `GET /categories`: nested objects keyed by title, `null` (or `{}`, `[]` from PHP sites) for a leaf.
 * Read branch by branch where the client walks it (guides-api.ts): one odd leaf never costs the tree.
 */
export const categoryHierarchyWire = z.record(z.string(), z.unknown());
