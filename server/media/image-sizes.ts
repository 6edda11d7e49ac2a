/** The size variants of an Image object (reference 2.2), smallest first. `original` has no URL suffix. */
export const IMAGE_SIZES = [
  'mini',
  'thumbnail',
  '140x105',
  '200x150',
  'standard',
  '440x330',
  'medium',
  'large',
  'huge',
  'original',
] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

// Bounding boxes in pixels, 4:3 like a real site's; an image is scaled to fit and never enlarged.
const BOXES: Record<Exclude<ImageSize, 'original'>, readonly [number, number]> = {
  mini: [56, 42],
  thumbnail: [96, 72],
  '140x105': [140, 105],
  '200x150': [200, 150],
  standard: [300, 225],
  '440x330': [440, 330],
  medium: [592, 444],
  large: [800, 600],
  huge: [1600, 1200],
};

export function isImageSize(value: string): value is ImageSize {
  return (IMAGE_SIZES as readonly string[]).includes(value);
}

/** Pixel size of a variant of an image whose original is `width` x `height`. */
export function variantDimensions(size: ImageSize, width: number, height: number): { width: number; height: number } {
  if (size === 'original') return { width, height };
  const [boxW, boxH] = BOXES[size];
  const scale = Math.min(1, boxW / width, boxH / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Image object of reference 2.2: the `original` URL, and every other variant at `<original>.<size>`. */
export function imageObject(id: number, guid: string, original: string): Record<string, string | number> {
  const image: Record<string, string | number> = { id, guid };
  for (const size of IMAGE_SIZES) image[size] = size === 'original' ? original : `${original}.${size}`;
  return image;
}
