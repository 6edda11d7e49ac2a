import type {
  GuideDetail,
  GuideFlag,
  GuideItem,
  GuideListItem,
  GuideStep,
  ImageVariants,
  StepForm,
  StepMedia,
  VideoEncoding,
} from '../../contract.ts';
import type { GuideSummaryWire, GuideWire, StepWire, VideoWire } from './wire/guide.ts';
import { embedWire, imageListWire, videoMediaWire } from './wire/guide.ts';
import type { StepFormWire } from './wire/step-form.ts';
import { webAddress } from '../../shared/web-address.ts';
import type { ImageWire } from './wire/user.ts';
import { toComments } from './map-comment.ts';

// From the wire to the project's own types: guide details, list items, step forms. Nothing past core/api
// knows the wire's field names.

const VARIANTS = ['thumbnail', 'standard', 'medium', 'large', 'original'] as const;

export function toImage(wire: ImageWire | null | undefined): ImageVariants | null {
  if (!wire) return null;
  const image: ImageVariants = { id: wire.id };
  for (const variant of VARIANTS) {
    const url = wire[variant];
    if (typeof url === 'string' && url !== '') image[variant] = url;
  }
  return image;
}

const flagId = (flag: string | { flagid: string }): string => (typeof flag === 'string' ? flag : flag.flagid);

export function toListItem(wire: GuideSummaryWire, offline: GuideListItem['offline']): GuideListItem {
  return {
    guideid: wire.guideid,
    title: wire.title,
    category: wire.category ?? '',
    subject: wire.subject ?? '',
    type: wire.type ?? '',
    image: toImage(wire.image),
    flags: (wire.flags ?? []).map(flagId),
    modifiedDate: wire.modified_date,
    offline,
    // The site's entry knows nothing of this computer: the library says what is stored.
    thumbnailStored: false,
  };
}

const FLAG_TEXT: Record<string, { title: string; text: string }> = {
  DANGER: { title: 'Danger', text: 'This procedure involves a risk of injury. Read every warning before you start.' },
  DEATH: { title: 'Risk of death', text: 'This procedure can kill. Follow lock-out and every safety step exactly.' },
};

function toFlag(flag: GuideWire['flags'] extends (infer F)[] | null | undefined ? F : never): GuideFlag {
  if (typeof flag === 'string')
    return { flagid: flag, title: FLAG_TEXT[flag]?.title ?? flag, text: FLAG_TEXT[flag]?.text ?? '' };
  return {
    flagid: flag.flagid,
    title: flag.title ?? FLAG_TEXT[flag.flagid]?.title ?? flag.flagid,
    text: flag.text ?? FLAG_TEXT[flag.flagid]?.text ?? '',
  };
}

function toItem(item: NonNullable<GuideWire['parts']>[number]): GuideItem {
  const quantity = typeof item.quantity === 'string' ? Number.parseInt(item.quantity, 10) : item.quantity;
  return {
    text: item.text ?? '',
    quantity: Number.isFinite(quantity) ? (quantity as number) : 1,
    url: item.url ?? null,
    notes: item.notes ?? null,
    thumbnail: item.thumbnail ?? null,
    optional: item.isoptional ?? false,
  };
}

/** A video as the site describes it: its poster and encodings (those without a size read 0 by 0). */
export function toVideoMedia(video: VideoWire): StepMedia & { type: 'video' } {
  const posterWire = video.image && 'image' in video.image ? video.image.image : video.image;
  const encodings: VideoEncoding[] = (video.encodings ?? []).map((e) => ({
    url: e.url,
    format: e.format ?? e.mime ?? '',
    width: e.width ?? null,
    height: e.height ?? null,
    ...(e.size != null ? { bytes: e.size } : {}),
  }));
  const poster = toImage(posterWire as ImageWire | null | undefined);
  // A video still transcoding has no encodings yet (iFixit's description): the sync asks for it again.
  const preparing = video.meta?.state === 'processing' && encodings.length === 0;
  return { type: 'video', poster, encodings, ...(preparing ? { preparing: true as const } : {}) };
}

/** The id of a step's video when the step carries nothing else (iFixit): `GET /media/videos/{id}` has the rest. */
export function bareVideoId(media: StepWire['media']): number | null {
  if (media?.type !== 'video') return null;
  const video = videoMediaWire.safeParse(media.data);
  if (!video.success || video.data.videoid == null) return null;
  return (video.data.encodings ?? []).length === 0 ? video.data.videoid : null;
}

export function toStepMedia(media: StepWire['media']): StepMedia {
  if (!media) return { type: 'none' };
  if (media.type === 'image') {
    const images = imageListWire.safeParse(media.data);
    const list = images.success ? images.data.map(toImage).filter((i): i is ImageVariants => i !== null) : [];
    return list.length > 0 ? { type: 'image', images: list } : { type: 'none' };
  }
  if (media.type === 'video') {
    const video = videoMediaWire.safeParse(media.data);
    return video.success ? toVideoMedia(video.data) : { type: 'none' };
  }
  if (media.type === 'embed') {
    const embed = embedWire.safeParse(media.data);
    if (!embed.success || !embed.data.html) return { type: 'none' };
    const url = embed.data.view_url ?? embed.data.url ?? null;
    const title = embed.data.filename ?? embed.data.title ?? null;
    return { type: 'embed', html: embed.data.html, title, url: webAddress(url) };
  }
  return { type: 'none' };
}

export function toStepForm(wire: StepFormWire): StepForm {
  return {
    formRevisionid: wire.form_revisionid,
    stepid: wire.stepid,
    fields: wire.fields.map((field) => ({
      fieldGuid: field.field_guid,
      fieldRevisionid: field.field_revisionid,
      type: field.field_type,
      label: field.label ?? '',
      placeholder: field.placeholder == null ? '' : String(field.placeholder),
      textarea: field.textarea == null ? '' : String(field.textarea),
      options: field.options,
    })),
  };
}

function toStep(step: StepWire, index: number, guideid: number): GuideStep {
  return {
    stepid: step.stepid,
    guideid: step.guideid ?? guideid,
    revisionid: step.revisionid ?? 0,
    orderby: step.orderby ?? index + 1,
    title: step.title ?? '',
    lines: (step.lines ?? []).map((line) => ({
      lineid: line.lineid ?? null,
      bullet: line.bullet ?? 'black',
      level: Math.max(0, Math.min(3, line.level ?? 0)),
      textRendered: line.text_rendered ?? asHtml(line.text_raw ?? ''),
    })),
    media: toStepMedia(step.media),
    form: null,
    comments: toComments(step.comments),
  };
}

/**
 * A line's raw text as HTML, for a site that sends it without `text_rendered` (iFixit's OpenAPI: a StepLine
 * requires only text_raw, bullet and level): its markup shown as typed, never a blank instruction.
 */
const asHtml = (raw: string): string =>
  raw.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Seconds as the site writes them, when they make a range (`time_required_min`, `_max`). */
function timeRange(min: number | null | undefined, max: number | null | undefined): GuideDetail['timeRange'] {
  if (min == null && max == null) return null;
  const low = Math.max(0, min ?? max ?? 0);
  const high = Math.max(low, max ?? low);
  return high > 0 ? { min: low, max: high } : null;
}

/**
 * A guide as `GET /guides/{id}` answers it, its own steps only, in their order: steps of another guide
 * (iFixit inlines its prerequisites' steps: inlinedSteps) are left out. Its forms, tags and quizzes come
 * from calls of their own, its prerequisites' steps from those guides (library/prerequisites.ts). A
 * site-relative address (a document's `view_url`) is made absolute against `siteUrl`.
 */
export function toGuideDetail(wire: GuideWire, siteUrl?: string): GuideDetail {
  const own = wire.steps
    .map((step, index) => toStep(step, index, wire.guideid))
    .filter((step) => step.guideid === wire.guideid);
  const language = wire.langid ?? wire.locale ?? null;
  return {
    guideid: wire.guideid,
    revisionid: wire.revisionid,
    title: wire.title,
    category: wire.category ?? '',
    subject: wire.subject ?? '',
    type: wire.type ?? '',
    difficulty: wire.difficulty ?? null,
    timeRequired: wire.time_required ?? null,
    timeRange: timeRange(wire.time_required_min, wire.time_required_max),
    author: wire.author?.username || wire.author?.text || null,
    image: toImage(wire.image),
    introductionRendered: wire.introduction_rendered ?? '',
    conclusionRendered: wire.conclusion_rendered ?? '',
    flags: (wire.flags ?? []).map(toFlag),
    parts: (wire.parts ?? []).map(toItem),
    tools: (wire.tools ?? []).map(toItem),
    prerequisites: (wire.prerequisites ?? []).map((p) => ({
      guideid: p.guideid,
      title: p.title ?? `Guide ${p.guideid}`,
    })),
    documents: (wire.documents ?? [])
      .map((d) => ({
        id: d.id ?? d.documentid ?? null,
        title: d.title || d.text || 'Document',
        url: d.download_url ?? d.url ?? '',
        viewUrl: d.view_url ? webAddress(siteUrl ? new URL(d.view_url, siteUrl).href : d.view_url) : null,
        pages: d.pages ?? null,
      }))
      .filter((d) => d.url !== ''),
    steps: own.sort((a, b) => a.orderby - b.orderby),
    tags: [],
    quizzes: [],
    comments: toComments(wire.comments),
    modifiedDate: wire.modified_date ?? 0,
    url: wire.url ?? null,
    language: language ? { langid: language, fallback: false } : null,
  };
}

/** Steps of other guides in the answer (iFixit's inlined prerequisites), by guide, each in its order. */
export function inlinedSteps(wire: GuideWire): Map<number, GuideStep[]> {
  const byGuide = new Map<number, GuideStep[]>();
  wire.steps.forEach((step, index) => {
    const mapped = toStep(step, index, wire.guideid);
    if (mapped.guideid === wire.guideid) return;
    byGuide.set(mapped.guideid, [...(byGuide.get(mapped.guideid) ?? []), mapped]);
  });
  for (const steps of byGuide.values()) steps.sort((a, b) => a.orderby - b.orderby);
  return byGuide;
}
