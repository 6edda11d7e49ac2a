import { deflateSync } from 'node:zlib';
import { glyphRows, GLYPH_HEIGHT, GLYPH_WIDTH } from './font5x7.ts';

/** An RGB canvas, 3 bytes a pixel, rows top to bottom. */
export interface Canvas {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

export type Rgb = readonly [number, number, number];

export function createCanvas(width: number, height: number, fill: Rgb = [255, 255, 255]): Canvas {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`Bad canvas size ${width}x${height}`);
  }
  const canvas = { width, height, pixels: new Uint8Array(width * height * 3) };
  fillRect(canvas, 0, 0, width, height, fill);
  return canvas;
}

export function fillRect(canvas: Canvas, x0: number, y0: number, w: number, h: number, [r, g, b]: Rgb): void {
  const xs = Math.max(0, Math.floor(x0));
  const ys = Math.max(0, Math.floor(y0));
  const xe = Math.min(canvas.width, Math.floor(x0 + w));
  const ye = Math.min(canvas.height, Math.floor(y0 + h));
  if (xs >= xe || ys >= ye) return;
  const { pixels } = canvas;
  // Paint one row by doubling copies, then copy that row down: far fewer steps than pixel by pixel.
  const start = (ys * canvas.width + xs) * 3;
  const length = (xe - xs) * 3;
  pixels[start] = r;
  pixels[start + 1] = g;
  pixels[start + 2] = b;
  for (let filled = 3; filled < length; filled *= 2) {
    pixels.copyWithin(start + filled, start, start + Math.min(filled, length - filled));
  }
  for (let y = ys + 1; y < ye; y++) pixels.copyWithin((y * canvas.width + xs) * 3, start, start + length);
}

/** Sets every pixel inside the bounding box for which `inside(x, y)` holds. */
export function fillWhere(
  canvas: Canvas,
  box: { x: number; y: number; w: number; h: number },
  colour: Rgb,
  inside: (x: number, y: number) => boolean,
): void {
  const xs = Math.max(0, Math.floor(box.x));
  const ys = Math.max(0, Math.floor(box.y));
  const xe = Math.min(canvas.width, Math.ceil(box.x + box.w));
  const ye = Math.min(canvas.height, Math.ceil(box.y + box.h));
  const { pixels } = canvas;
  for (let y = ys; y < ye; y++) {
    for (let x = xs; x < xe; x++) {
      if (!inside(x + 0.5, y + 0.5)) continue;
      const i = (y * canvas.width + x) * 3;
      pixels[i] = colour[0];
      pixels[i + 1] = colour[1];
      pixels[i + 2] = colour[2];
    }
  }
}

/** Width in pixels of `text` drawn at `scale` (one blank column between glyphs). */
export function textWidth(text: string, scale: number): number {
  return text.length === 0 ? 0 : (text.length * (GLYPH_WIDTH + 1) - 1) * scale;
}

/** Block letters from the 5x7 font; unknown characters draw as blanks. */
export function drawText(canvas: Canvas, text: string, x: number, y: number, scale: number, colour: Rgb): void {
  let cursor = Math.round(x);
  for (const char of text.toUpperCase()) {
    const rows = glyphRows(char);
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      const bits = rows[row] ?? 0;
      for (let col = 0; col < GLYPH_WIDTH; col++) {
        if (bits & (1 << (GLYPH_WIDTH - 1 - col))) {
          fillRect(canvas, cursor + col * scale, Math.round(y) + row * scale, scale, scale, colour);
        }
      }
    }
    cursor += (GLYPH_WIDTH + 1) * scale;
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(...parts: Uint8Array[]): number {
  let crc = 0xffffffff;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) crc = (CRC_TABLE[(crc ^ part[i]!) & 0xff]! ^ (crc >>> 8)) >>> 0;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, tail]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A truecolour 8-bit PNG of the canvas. Same canvas, same bytes. */
export function encodePng(canvas: Canvas): Buffer {
  const { width, height, pixels } = canvas;
  const stride = width * 3;
  // Filter "Up" (2) on every row: flat colours and vertical structure compress to almost nothing.
  const raw = Buffer.alloc((stride + 1) * height);
  raw[0] = 2;
  raw.set(pixels.subarray(0, stride), 1);
  for (let y = 1; y < height; y++) {
    let out = y * (stride + 1);
    raw[out++] = 2;
    let here = y * stride;
    let above = here - stride;
    const end = here + stride;
    while (here < end) raw[out++] = (pixels[here++]! - pixels[above++]!) & 0xff;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Width and height from a PNG or JPEG header, for uploads; undefined for anything else. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length >= 24 && buf.subarray(0, 8).equals(SIGNATURE)) {
    return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    let at = 2;
    while (at + 9 < buf.length) {
      if (buf[at] !== 0xff) return undefined;
      const marker = buf[at + 1]!;
      const length = buf.readUInt16BE(at + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: buf.readUInt16BE(at + 5), width: buf.readUInt16BE(at + 7) };
      }
      at += 2 + length;
    }
  }
  return undefined;
}

/**
 * The PNG with a `tEXt` chunk (`keyword`, `text`, Latin-1) added before IEND: the same picture, but
 * different bytes. Generated sites share drawn pictures between images and tag each file with its GUID.
 */
export function withTextChunk(png: Buffer, keyword: string, text: string): Buffer {
  const iend = png.length - 12;
  const data = Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]);
  return Buffer.concat([png.subarray(0, iend), chunk('tEXt', data), png.subarray(iend)]);
}
