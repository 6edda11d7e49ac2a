import { z } from 'zod';
import { listedUser, user } from './schemas.ts';

/** Wire shapes of the content side, written from the reference, public-shapes.md and DESIGN.md §7. */

const url = z.string().url();
const SIZES = ['mini', 'thumbnail', '140x105', '200x150', 'standard', '440x330', 'medium', 'large', 'huge'] as const;

/** Reference 2.2 with every variant at `<original>.<size>` (public-shapes.md "Images"). */
export const imageObject = z
  .object({
    id: z.number().int(),
    guid: z.string().min(1),
    original: url,
    ...Object.fromEntries(SIZES.map((s) => [s, url])),
  })
  .strict()
  .superRefine((image, ctx) => {
    for (const size of SIZES) {
      if ((image as Record<string, unknown>)[size] !== `${image.original}.${size}`)
        ctx.addIssue({ code: 'custom', message: `${size} is not <original>.${size}` });
    }
  });

export const GUIDE_TYPES = [
  'replacement',
  'installation',
  'repair',
  'disassembly',
  'teardown',
  'technique',
  'maintenance',
  'how-to',
] as const;
export const DIFFICULTIES = ['Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult'] as const;
const BULLETS = [
  'black',
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'light_blue',
  'violet',
  'icon_note',
  'icon_caution',
  'icon_reminder',
] as const;

/** Reference 2.9 (plus summary and difficulty, decided in server/README.md). */
export const guideSummary = z.object({
  category: z.string(),
  dataType: z.literal('guide'),
  flags: z.array(z.string()),
  guideid: z.number().int(),
  image: imageObject.nullable(),
  locale: z.string(),
  modified_date: z.number(),
  prereq_modified_date: z.number(),
  public: z.boolean(),
  revisionid: z.number().int(),
  subject: z.string(),
  title: z.string(),
  type: z.enum(GUIDE_TYPES),
  url,
  userid: z.number().int(),
  username: z.string(),
  summary: z.string(),
  difficulty: z.enum(DIFFICULTIES),
});

export const searchGuide = guideSummary.extend({ isArchived: z.boolean() });

export const flagObject = z.object({ flagid: z.string(), image: url, title: z.string(), text: z.string() });

const item = z.object({
  text: z.string(),
  quantity: z.number().int(),
  url: z.string(),
  thumbnail: z.string(),
  notes: z.string(),
});

export const comment = z.object({
  commentid: z.number().int(),
  locale: z.string(),
  context: z.enum(['guide', 'step', 'wiki', 'post', 'info', 'story']),
  contextid: z.number().int(),
  parentid: z.number().int().nullable(),
  author: user.nullable(),
  text_raw: z.string(),
  text_rendered: z.string(),
  date: z.number().int(),
  modified_date: z.number().int(),
  status: z.string(),
});

const line = z.object({
  lineid: z.number().int().nullable(),
  bullet: z.enum(BULLETS),
  level: z.number().int().min(0).max(3),
  text_raw: z.string(),
  text_rendered: z.string(),
});

const encoding = z.object({
  codecs: z.string(),
  format: z.string(),
  height: z.number().int(),
  width: z.number().int(),
  mime: z.string(),
  url,
  max_video_bitrate: z.number().optional(),
});

/** Reference 2.11, image detail. */
export const imageDetail = z.object({
  image: imageObject,
  srcid: z.number().int().nullable(),
  width: z.number().int(),
  height: z.number().int(),
  ratio: z.enum(['FOUR_THREE', 'VARIABLE']),
  markup: z.string().nullable(),
  exif: z.record(z.string(), z.unknown()),
});

/** Reference 2.11, video detail. */
export const videoDetail = z.object({
  videoid: z.number().int(),
  duration: z.number().int(),
  filename: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  srcid: z.number().int().nullable(),
  image: z.object({
    exif: z.record(z.string(), z.unknown()),
    height: z.number().int(),
    image: imageObject,
    markup: z.string().nullable(),
    ratio: z.string(),
    srcid: z.number().int().nullable(),
    width: z.number().int(),
  }),
  encodings: z.array(encoding).min(1),
  meta: z.object({
    audio_bitrate_in_kbps: z.number().nullable(),
    audio_codec: z.string().nullable(),
    audio_sample_rate: z.number().nullable(),
    channels: z.number().nullable(),
    duration_in_ms: z.number().int(),
    file_size_in_bytes: z.number().int(),
    format: z.string(),
    frame_rate: z.number(),
    height: z.number().int(),
    id: z.number().int(),
    md5_checksum: z.string().regex(/^[0-9a-f]{32}$/),
    state: z.string(),
    total_bitrate_in_kbps: z.number(),
    video_bitrate_in_kbps: z.number(),
    video_codec: z.string(),
    width: z.number().int(),
  }),
});

/** public-shapes.md: media `{type, data}`: images, a video object, or an embed with `html`. */
const stepMedia = z.discriminatedUnion('type', [
  z.object({ type: z.literal('image'), data: z.array(imageObject) }),
  z.object({ type: z.literal('video'), data: videoDetail }),
  z.object({ type: z.literal('embed'), data: z.object({ html: z.string(), url: z.string().nullable() }) }),
]);

export const step = z.object({
  guideid: z.number().int(),
  stepid: z.number().int(),
  revisionid: z.number().int(),
  orderby: z.number().int(),
  title: z.string(),
  media: stepMedia,
  lines: z.array(line),
  comments: z.array(comment),
});

export const documentObject = z.object({
  documentid: z.number().int(),
  guid: z.string(),
  title: z.string(),
  filename: z.string(),
  mime: z.string(),
  size: z.number().int(),
  url,
});

/** The full guide: public-shapes.md "Guides" and reference 2.10. */
export const fullGuide = guideSummary.extend({
  langid: z.string(),
  author: listedUser,
  time_required: z.string(),
  time_required_min: z.number().int(),
  time_required_max: z.number().int(),
  introduction_raw: z.string(),
  introduction_rendered: z.string(),
  conclusion_raw: z.string(),
  conclusion_rendered: z.string(),
  flags: z.array(flagObject),
  documents: z.array(documentObject),
  parts: z.array(item),
  tools: z.array(item),
  prerequisites: z.array(guideSummary.extend({ time_required_max: z.number().int() })),
  steps: z.array(step),
  comments: z.array(comment),
  tags: z.array(z.string()),
  favorited: z.boolean(),
  completed: z.boolean(),
  can_edit: z.boolean(),
  created_date: z.number().int(),
  published_date: z.number().int().nullable(),
  featured_document_embed_url: z.string().nullable(),
  featured_document_thumbnail_url: z.string().nullable(),
});

export type Hierarchy = { [title: string]: Hierarchy | null };
export const hierarchy: z.ZodType<Hierarchy> = z.lazy(() => z.record(z.string(), hierarchy.nullable()));

export const lightWiki = z.object({
  wikiid: z.number().int(),
  namespace: z.literal('CATEGORY'),
  title: z.string(),
  display_title: z.string(),
  summary: z.string(),
  image: imageObject.nullable(),
  url,
});

/** Reference 2.8 fields a category carries, and its guides. */
export const categoryDetail = z.object({
  wikiid: z.number().int(),
  langid: z.string(),
  namespace: z.literal('CATEGORY'),
  title: z.string(),
  display_title: z.string(),
  revisionid: z.number().int(),
  url,
  fullUrl: url,
  editUrl: url,
  description: z.string(),
  contents_raw: z.string(),
  contents_rendered: z.string(),
  can_edit: z.boolean(),
  image: imageObject.nullable(),
  ancestors: z.array(z.string()),
  children: z.array(lightWiki),
  guides: z.array(guideSummary),
  featured_guides: z.array(guideSummary),
  favorited_guide_ids: z.array(z.number().int()),
  related_wikis: z.array(z.unknown()),
  flags: z.array(z.unknown()),
  documents: z.array(z.unknown()),
  author: z.array(z.unknown()),
  category_info: z.array(z.unknown()),
  category_lists: z.array(z.unknown()),
  info: z.array(z.unknown()),
  repairability_score: z.null(),
  source_revisionid: z.null(),
});

/** Reference 4.9, a wiki-type result. */
export const searchWiki = z.object({
  dataType: z.literal('wiki'),
  display_title: z.string(),
  image: imageObject.nullable(),
  namespace: z.string(),
  summary: z.string(),
  text: z.string(),
  title: z.string(),
  url,
});

export const FIELD_TYPES = [
  'Text Input',
  'Text Area',
  'Numeric Input',
  'Checkbox',
  'Radios',
  'Select',
  'Image',
  'Video',
  'Document',
] as const;

/** Reference 2.12 plus `label` (decided in server/README.md). */
export const formField = z.object({
  field_guid: z.string().min(1),
  field_revisionid: z.number().int(),
  field_type: z.enum(FIELD_TYPES),
  label: z.string().min(1),
  placeholder: z.string(),
  textarea: z.string(),
  options: z.array(z.string()),
});

export const stepForm = z.object({
  form_revisionid: z.number().int(),
  stepid: z.number().int(),
  guideid: z.number().int(),
  created: z.number().int(),
  fields: z.array(formField),
});

/**
 * Work-log entry: public-shapes.md plus revisionid, active_stepid, pause_duration (DESIGN.md §7) and paused_at
 * (when the running pause or suspension began).
 */
export const workLogEntry = z.object({
  entryid: z.number().int(),
  guideid: z.number().int(),
  userid: z.number().int(),
  workorderid: z.string(),
  starttime: z.number().int(),
  endtime: z.number().int().nullable(),
  status: z.enum(['started', 'paused', 'suspended', 'complete', 'cancelled']),
  revisionid: z.number().int(),
  active_stepid: z.number().int().nullable(),
  pause_duration: z.number().int().min(0),
  paused_at: z.number().int().nullable(),
  max_form_revisionid: z.number().int().nullable(),
  guide_revisionid: z.number().int(),
  cancelled: z.union([z.literal(0), z.literal(1)]),
  duration: z.number().int().min(0),
  timingid: z.number().int().nullable(),
  work_data: z.array(
    z.object({
      label: z.string(),
      value: z.string(),
      field_revisionid: z.number().int(),
      field_guid: z.string(),
      stepid: z.number().int(),
    }),
  ),
});

export const workLogList = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  totalResults: z.number().int(),
  moreResults: z.boolean(),
  results: z.array(workLogEntry),
});

/** DESIGN.md §7: 422 invalid_transition with the current entry under `entry`. */
export const invalidTransitionBody = z.object({
  message: z.string(),
  errors: z
    .array(z.object({ field: z.string().optional(), code: z.literal('invalid_transition'), message: z.string() }))
    .min(1),
  entry: workLogEntry,
});

export const quizSummary = z.object({
  quizid: z.number().int(),
  quizRevisionid: z.number().int(),
  title: z.string(),
  description: z.string(),
  passing_score: z.number().int().min(0).max(100),
  question_count: z.number().int(),
  guideids: z.array(z.number().int()),
  created: z.number().int(),
  modified: z.number().int(),
});

/** SurveyJS JSON (the parts a client reads) with the quiz ids beside it. */
export const surveyQuiz = z.object({
  quizid: z.number().int(),
  quizRevisionid: z.number().int(),
  title: z.string(),
  pages: z.array(
    z.object({
      name: z.string(),
      elements: z.array(
        z.object({
          type: z.enum(['radiogroup', 'checkbox', 'boolean', 'dropdown', 'text']),
          name: z.string(),
          title: z.string(),
          correctAnswer: z.unknown(),
        }),
      ),
    }),
  ),
});

export const association = z.object({
  guideid: z.number().int(),
  quizid: z.number().int(),
  quizRevisionid: z.number().int(),
  title: z.string(),
  passing_score: z.number().int(),
});

export const courseAssignment = z.object({
  course_assignmentid: z.number().int(),
  courseid: z.number().int(),
  course_title: z.string(),
  course_stageid: z.number().int(),
  stage_title: z.string(),
  userid: z.number().int().nullable(),
  teamid: z.number().int().nullable(),
  assigned_date: z.number().int(),
  due_date: z.number().int().nullable(),
});

/** DESIGN.md §7. */
export const attempt = z.object({
  attemptid: z.number().int(),
  userid: z.number().int(),
  quizid: z.number().int(),
  quizRevisionid: z.number().int(),
  course_stageid: z.number().int().nullable(),
  answers: z.record(z.string(), z.unknown()),
  score: z.number().int().min(0).max(100),
  passed: z.boolean(),
  started: z.number().int(),
  finished: z.number().int(),
  client_uuid: z.string().nullable(),
});

/** A user media item (shape decided in server/README.md). */
export const mediaItem = z.object({
  id: z.number().int(),
  type: z.enum(['GuideImage', 'GuideVideoObject', 'GuideEmbedObject', 'Document']),
  name: z.string(),
  userid: z.number().int(),
  created: z.number().int(),
  ready: z.boolean(),
  status: z.enum(['ready', 'processing']),
  image: z
    .object({
      id: z.number().int(),
      guid: z.string(),
      original: url,
      thumbnail: url,
      width: z.number().int(),
      height: z.number().int(),
    })
    .loose()
    .optional(),
  video: z
    .object({ videoid: z.number().int(), encodings: z.array(encoding).min(1) })
    .loose()
    .optional(),
  document: documentObject.optional(),
});

export const comments = z.array(comment);
