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
import type { GuideSummaryWire, GuideWire, StepWire } from './wire/guide.ts';
import { embedWire, imageListWire, videoMediaWire } from './wire/guide.ts';
import type { StepFormWire } from './wire/step-form.ts';
import type { ImageWire } from './wire/user.ts';

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
  if (typeof flag === 'string') return { flagid: flag, title: FLAG_TEXT[flag]?.title ?? flag, text: FLAG_TEXT[flag]?.text ?? '' };
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
  };
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
    if (!video.success) return { type: 'none' };
    const posterWire = video.data.image && 'image' in video.data.image ? video.data.image.image : video.data.image;
    const encodings: VideoEncoding[] = (video.data.encodings ?? []).map((e) => ({
      url: e.url,
      format: e.format ?? e.mime ?? '',
      width: e.width ?? null,
      height: e.height ?? null,
    }));
    return { type: 'video', poster: toImage(posterWire as ImageWire | null | undefined), encodings };
  }
  if (media.type === 'embed') {
    const embed = embedWire.safeParse(media.data);
    return embed.success && embed.data.html ? { type: 'embed', html: embed.data.html } : { type: 'none' };
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

function toStep(step: StepWire, index: number): GuideStep {
  return {
    stepid: step.stepid,
    revisionid: step.revisionid ?? 0,
    orderby: step.orderby ?? index + 1,
    title: step.title ?? '',
    lines: (step.lines ?? []).map((line) => ({
      lineid: line.lineid ?? null,
      bullet: line.bullet ?? 'black',
      level: Math.max(0, Math.min(3, line.level ?? 0)),
      textRendered: line.text_rendered ?? '',
    })),
    media: toStepMedia(step.media),
    form: null,
  };
}

/** A guide as `GET /guides/{id}` answers it: its forms, tags and quizzes come from calls of their own. */
export function toGuideDetail(wire: GuideWire): GuideDetail {
  return {
    guideid: wire.guideid,
    revisionid: wire.revisionid,
    title: wire.title,
    category: wire.category ?? '',
    subject: wire.subject ?? '',
    type: wire.type ?? '',
    difficulty: wire.difficulty ?? null,
    timeRequired: wire.time_required ?? null,
    author: wire.author?.username || wire.author?.text || null,
    image: toImage(wire.image),
    introductionRendered: wire.introduction_rendered ?? '',
    conclusionRendered: wire.conclusion_rendered ?? '',
    flags: (wire.flags ?? []).map(toFlag),
    parts: (wire.parts ?? []).map(toItem),
    tools: (wire.tools ?? []).map(toItem),
    prerequisites: (wire.prerequisites ?? []).map((p) => ({ guideid: p.guideid, title: p.title ?? `Guide ${p.guideid}` })),
    documents: (wire.documents ?? [])
      .map((d) => ({ id: d.id ?? d.documentid ?? null, title: d.title ?? d.text ?? 'Document', url: d.download_url ?? d.url ?? '' }))
      .filter((d) => d.url !== ''),
    steps: [...wire.steps].map((step, index) => toStep(step, index)).sort((a, b) => a.orderby - b.orderby),
    tags: [],
    quizzes: [],
    modifiedDate: wire.modified_date ?? 0,
    url: wire.url ?? null,
  };
}
