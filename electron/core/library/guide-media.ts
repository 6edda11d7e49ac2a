import type { GuideDetail } from '../../contract.ts';
import { byFit, listPicture, playableEncoding, SHOWN_VARIANTS, stepPicture } from '../../shared/media.ts';
import type { VideoFit } from '../../shared/media.ts';

/** The guide with each video's encodings in this laptop's order: the one that fits first (shared/media.ts). */
export function fitVideos(detail: GuideDetail, fit: VideoFit): GuideDetail {
  if (!detail.steps.some((step) => step.media.type === 'video')) return detail;
  return {
    ...detail,
    steps: detail.steps.map((step) =>
      step.media.type === 'video'
        ? { ...step, media: { ...step.media, encodings: byFit(step.media.encodings, fit) } }
        : step,
    ),
  };
}

/** Every media URL the views of a guide show: what the downloader fetches and the eviction keeps. */
export function mediaUrlsOf(detail: GuideDetail): string[] {
  const urls = new Set<string>();
  const add = (url: string | undefined | null): void => {
    if (typeof url === 'string' && url !== '') urls.add(url);
  };
  add(listPicture(detail.image));
  add(detail.image?.[SHOWN_VARIANTS.step]);
  for (const step of detail.steps) {
    if (step.media.type === 'image') {
      // One size per step picture, the one the step shows: nothing shows a step picture's thumbnail, and
      // downloading both sizes doubled the sync's requests.
      for (const image of step.media.images) add(stepPicture(image));
    } else if (step.media.type === 'video') {
      add(stepPicture(step.media.poster));
      add(playableEncoding(step.media.encodings)?.url);
    }
  }
  for (const item of [...detail.parts, ...detail.tools]) add(item.thumbnail);
  for (const doc of detail.documents) add(doc.url);
  return [...urls];
}

/**
 * Which of a guide's media to download first and last: its picture in the library's rows first, videos
 * and documents (the large files) after every picture (media-repo.ts, `rank`).
 */
export function mediaOrderOf(detail: GuideDetail): { first: string[]; last: string[] } {
  const first = listPicture(detail.image);
  const last = new Set<string>();
  for (const step of detail.steps) {
    const video = step.media.type === 'video' ? playableEncoding(step.media.encodings)?.url : undefined;
    if (video) last.add(video);
  }
  for (const doc of detail.documents) if (doc.url) last.add(doc.url);
  return { first: first ? [first] : [], last: [...last] };
}

/** The zoom variants of a guide's step pictures, per picture quality: kept only while that quality is chosen. */
export function zoomUrlsOf(detail: GuideDetail): { large: string[]; original: string[] } {
  const large = new Set<string>();
  const original = new Set<string>();
  for (const step of detail.steps) {
    if (step.media.type !== 'image') continue;
    for (const image of step.media.images) {
      if (image.large) large.add(image.large);
      if (image.original) original.add(image.original);
    }
  }
  return { large: [...large], original: [...original] };
}

/** Every media URL a guide read from the site may show, in any variant: what the media route may fetch for it. */
export function allMediaUrlsOf(detail: GuideDetail): string[] {
  const urls = new Set(mediaUrlsOf(detail));
  const zoom = zoomUrlsOf(detail);
  for (const url of [...zoom.large, ...zoom.original]) urls.add(url);
  return [...urls];
}
