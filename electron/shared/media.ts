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
export const zoomVariant = (quality: PictureQuality): 'large' | 'original' | null => (quality === 'standard' ? null : quality);

/** The picture a list shows for an image. */
export const listPicture = (image: ImageVariants | null | undefined): string | undefined => image?.[SHOWN_VARIANTS.list];

/** The picture a step shows for an image: its step size, else its thumbnail. */
export const stepPicture = (image: ImageVariants | null | undefined): string | undefined => image?.[SHOWN_VARIANTS.step] ?? image?.thumbnail;

/**
 * What the lightbox asks for, best first: the original, the large variant, the step size, the thumbnail.
 * The media route answers with the first it has (and the first from the site when it may: media.ts of
 * the contract), so the lightbox shows the best stored variant without knowing which that is.
 */
export function zoomCandidates(image: ImageVariants): string[] {
  const urls = [image.original, image.large, image[SHOWN_VARIANTS.step], image.thumbnail];
  return [...new Set(urls.filter((url): url is string => typeof url === 'string' && url !== ''))];
}

export const isMp4 = (encoding: VideoEncoding): boolean => /mp4/i.test(encoding.format) || /\.mp4($|\?)/i.test(encoding.url);

/** The encoding of a video that is kept and played (MP4 first, else the first): the only one there is offline. */
export function playableEncoding(encodings: readonly VideoEncoding[]): VideoEncoding | null {
  return encodings.find(isMp4) ?? encodings[0] ?? null;
}
