import type { ImageVariants, VideoEncoding } from '../contract.ts';

/**
 * The image variants the views show: lists a thumbnail, steps, the lightbox and the guide's own picture
 * the standard size. The media downloader keeps what they show, and nothing else is on the computer.
 */
export const SHOWN_VARIANTS = { list: 'thumbnail', step: 'standard' } as const;

/** The picture a list shows for an image. */
export const listPicture = (image: ImageVariants | null | undefined): string | undefined => image?.[SHOWN_VARIANTS.list];

/** The picture a step shows for an image: its step size, else its thumbnail. */
export const stepPicture = (image: ImageVariants | null | undefined): string | undefined => image?.[SHOWN_VARIANTS.step] ?? image?.thumbnail;

export const isMp4 = (encoding: VideoEncoding): boolean => /mp4/i.test(encoding.format) || /\.mp4($|\?)/i.test(encoding.url);

/** The encoding of a video that is kept and played (MP4 first, else the first): the only one there is offline. */
export function playableEncoding(encodings: readonly VideoEncoding[]): VideoEncoding | null {
  return encodings.find(isMp4) ?? encodings[0] ?? null;
}
