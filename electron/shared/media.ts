import type { ImageVariants, PictureQuality, VideoEncoding } from '../contract.ts';

/**
 * The image variants the views show: lists a thumbnail, steps and the guide's own picture the standard
 * size. The media downloader keeps what they show, whatever the picture quality; the lightbox shows more
 * (zoomCandidates below).
 */
export const SHOWN_VARIANTS = { list: 'thumbnail', step: 'standard' } as const;

/** The picture qualities a technician may keep for zoom, smallest first; `standard` keeps nothing more. */
export const PICTURE_QUALITIES: readonly PictureQuality[] = ['standard', 'large', 'original'];

/**
 * The variant of a step picture a quality keeps on top of what the steps show (`<original>.large` or the
 * original itself); `standard` keeps none.
 */
export const zoomVariant = (quality: PictureQuality): 'large' | 'original' | null =>
  quality === 'standard' ? null : quality;

/**
 * The picture a list shows for an image: its thumbnail, else the smallest variant there is. A site answers
 * an image before it has resized it with its original alone (iFixit's OpenAPI: "Ungenerated sizes are
 * omitted from the object; id, guid, and original are always present"); the guide is not fetched again when
 * it has, so that original is its picture here.
 */
export const listPicture = (image: ImageVariants | null | undefined): string | undefined =>
  image?.[SHOWN_VARIANTS.list] ?? image?.standard ?? image?.medium ?? image?.large ?? image?.original;

/** The picture a step shows for an image: its step size, else the nearest variant there is (listPicture). */
export const stepPicture = (image: ImageVariants | null | undefined): string | undefined =>
  image?.[SHOWN_VARIANTS.step] ?? image?.medium ?? image?.thumbnail ?? image?.large ?? image?.original;

/**
 * What the lightbox asks for, best first: the original, the large variant, the step size, the thumbnail.
 * The media route answers with the first it has (and the first from the site when it may: media.ts of
 * the contract), so the lightbox shows the best stored variant without knowing which that is.
 */
export function zoomCandidates(image: ImageVariants): string[] {
  const urls = [image.original, image.large, image[SHOWN_VARIANTS.step], image.thumbnail];
  return [...new Set(urls.filter((url): url is string => typeof url === 'string' && url !== ''))];
}

export const isMp4 = (encoding: VideoEncoding): boolean =>
  /mp4/i.test(encoding.format) || /\.mp4($|\?)/i.test(encoding.url);

/**
 * The encoding of a video that is kept and played (the first MP4, else the first): the only one there is
 * offline. The sync puts the one that fits this laptop first (fittingEncoding), so it is that one.
 */
export function playableEncoding(encodings: readonly VideoEncoding[]): VideoEncoding | null {
  return encodings.find(isMp4) ?? encodings[0] ?? null;
}

/** The screen a video is fitted to when the window has not told its own (a common laptop's). */
export const DEFAULT_DISPLAY = { width: 1920, height: 1080 } as const;

/** What a video is kept for: the screen (device pixels), and the room left in the storage budget. */
export interface VideoFit {
  display: { width: number; height: number } | null;
  /** Bytes the budget has left for media. */
  roomBytes: number;
  /** Less than a quarter of the budget is left: the smallest encodings are kept. */
  short: boolean;
}

const area = (encoding: VideoEncoding): number => (encoding.width ?? 0) * (encoding.height ?? 0);

/** Whether an encoding fits on the screen either way round (a portrait screen shows a landscape video across). */
function fitsScreen(encoding: VideoEncoding, display: { width: number; height: number }): boolean {
  const [width, height] = [encoding.width ?? 0, encoding.height ?? 0];
  const [long, short] = [Math.max(width, height), Math.min(width, height)];
  return long <= Math.max(display.width, display.height) && short <= Math.min(display.width, display.height);
}

/**
 * The encoding of a video to keep (among the MP4s when there are any, which every shell plays): the
 * largest at or below the screen's size whose size (when the site says) fits the room left in the budget;
 * the smallest when the budget is short, or when none fits.
 */
export function fittingEncoding(encodings: readonly VideoEncoding[], fit: VideoFit): VideoEncoding | null {
  const mp4 = encodings.filter(isMp4);
  const candidates = mp4.length > 0 ? mp4 : [...encodings];
  if (candidates.length === 0) return null;
  const smallest = candidates.reduce((best, encoding) => (area(encoding) < area(best) ? encoding : best));
  if (fit.short) return smallest;
  const display = fit.display ?? DEFAULT_DISPLAY;
  const roomFor = (e: VideoEncoding): boolean => e.bytes === undefined || e.bytes <= fit.roomBytes;
  const fitting = candidates.filter((e) => fitsScreen(e, display) && roomFor(e));
  if (fitting.length === 0) return smallest;
  return fitting.reduce((best, encoding) => (area(encoding) > area(best) ? encoding : best));
}

/** The encodings with the one to keep first (fittingEncoding), the others after it in the site's order. */
export function byFit(encodings: readonly VideoEncoding[], fit: VideoFit): VideoEncoding[] {
  const chosen = fittingEncoding(encodings, fit);
  return chosen ? [chosen, ...encodings.filter((encoding) => encoding !== chosen)] : [...encodings];
}
