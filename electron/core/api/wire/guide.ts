import { z } from 'zod';
import { imageWire, userWire } from './user.ts';

// Wire shapes of guides (reference 2.9, 2.10; public-shapes.md "Guides"). Lenient where real servers
// differ (nullable, optional, extra keys kept out), strict where the client depends on a field.

const flagRef = z.union([z.string(), z.object({ flagid: z.string() }).loose()]);

/** Guide summary (list entries, reference 2.9). */
export const guideSummaryWire = z
  .object({
    guideid: z.number().int(),
    title: z.string(),
    category: z.string().nullish(),
    subject: z.string().nullish(),
    type: z.string().nullish(),
    locale: z.string().nullish(),
    revisionid: z.number().int(),
    modified_date: z.number(),
    prereq_modified_date: z.number().nullish(),
    public: z.boolean().nullish(),
    /** The author: with `public`, who may read a private guide. */
    userid: z.number().int().nullish(),
    flags: z.array(flagRef).nullish(),
    image: imageWire.nullish(),
    url: z.string().nullish(),
    summary: z.string().nullish(),
    difficulty: z.string().nullish(),
    isArchived: z.boolean().optional(),
  })
  .loose();
export type GuideSummaryWire = z.infer<typeof guideSummaryWire>;

export const guideSummaryListWire = z.array(guideSummaryWire);

const lineWire = z
  .object({
    lineid: z.number().int().nullish(),
    bullet: z.string().nullish(),
    level: z.number().int().nullish(),
    text_raw: z.string().nullish(),
    text_rendered: z.string().nullish(),
  })
  .loose();

const encodingWire = z
  .object({
    url: z.string(),
    format: z.string().nullish(),
    mime: z.string().nullish(),
    width: z.number().nullish(),
    height: z.number().nullish(),
  })
  .loose();

const videoDataWire = z
  .object({
    image: z.union([imageWire, z.object({ image: imageWire }).loose()]).nullish(),
    encodings: z.array(encodingWire).nullish(),
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
    stepid: z.number().int(),
    revisionid: z.number().int().nullish(),
    orderby: z.number().int().nullish(),
    title: z.string().nullish(),
    lines: z.array(lineWire).nullish(),
    media: stepMediaWire.nullish(),
  })
  .loose();

const itemWire = z
  .object({
    text: z.string().nullish(),
    quantity: z.union([z.number(), z.string()]).nullish(),
    url: z.string().nullish(),
    notes: z.string().nullish(),
    thumbnail: z.string().nullish(),
  })
  .loose();

const flagWire = z.union([
  z.string(),
  z.object({ flagid: z.string(), title: z.string().nullish(), text: z.string().nullish() }).loose(),
]);

const documentWire = z
  .object({
    id: z.number().int().nullish(),
    documentid: z.number().int().nullish(),
    title: z.string().nullish(),
    text: z.string().nullish(),
    url: z.string().nullish(),
    download_url: z.string().nullish(),
  })
  .loose();

const prerequisiteWire = z.object({ guideid: z.number().int(), title: z.string().nullish() }).loose();

/** Full guide (`GET /guides/{guideid}`). */
export const guideWire = z
  .object({
    guideid: z.number().int(),
    revisionid: z.number().int(),
    title: z.string(),
    category: z.string().nullish(),
    subject: z.string().nullish(),
    type: z.string().nullish(),
    difficulty: z.string().nullish(),
    time_required: z.string().nullish(),
    author: userWire.nullish(),
    image: imageWire.nullish(),
    introduction_rendered: z.string().nullish(),
    conclusion_rendered: z.string().nullish(),
    summary: z.string().nullish(),
    flags: z.array(flagWire).nullish(),
    parts: z.array(itemWire).nullish(),
    tools: z.array(itemWire).nullish(),
    prerequisites: z.array(prerequisiteWire).nullish(),
    documents: z.array(documentWire).nullish(),
    steps: z.array(stepWire),
    modified_date: z.number().nullish(),
    public: z.boolean().nullish(),
    url: z.string().nullish(),
  })
  .loose();
export type GuideWire = z.infer<typeof guideWire>;
export type StepWire = z.infer<typeof stepWire>;

export const videoMediaWire = videoDataWire;
export const imageListWire = z.array(imageWire);
export const embedWire = z.object({ html: z.string().nullish() }).loose();

/** `GET /wikis/CATEGORY?display=hierarchy` / `GET /categories`: nested objects keyed by title. */
export type CategoryHierarchyWire = { [title: string]: CategoryHierarchyWire | null };
export const categoryHierarchyWire: z.ZodType<CategoryHierarchyWire> = z.lazy(() =>
  z.record(z.string(), z.union([categoryHierarchyWire, z.null(), z.array(z.never())]).transform((v) => (Array.isArray(v) ? null : v))),
);
