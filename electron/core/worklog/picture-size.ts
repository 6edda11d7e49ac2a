import sizeOf from 'image-size';

/** A picture's width and height in pixels. */
export interface PictureSize {
  width: number;
  height: number;
}

/**
 * The size of a picture (PNG, JPEG, GIF, WebP, BMP, HEIC, AVIF, TIFF and more) read from the first bytes of its
 * file, its header, with no decoding: `image-size`, a small library with no dependencies kept by many projects,
 * rather than a reader of each format's header written here. Undefined for a file that is not a picture, or one
 * whose bytes given do not tell (a JPEG whose frame comes later).
 */
export function pictureSize(head: Buffer): PictureSize | undefined {
  try {
    const { width, height } = sizeOf(head);
    return width !== undefined && height !== undefined ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
