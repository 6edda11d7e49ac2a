import { describe, expect, it } from 'vitest';
import { pictureSize } from '../../electron/core/worklog/picture-size.ts';
import { createCanvas, encodePng } from '../../server/media/png.ts';

// A picture's size read from its first bytes, as an iFixit site's 50x50-pixel floor is checked when it is attached.
const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
const le16 = (n: number) => [n & 0xff, n >> 8];
const le32 = (n: number) => [...le16(n & 0xffff), ...le16(n >>> 16)];

describe('the size of a picture, from its header', () => {
  it('reads PNG, GIF, BMP and the three WebP kinds', () => {
    expect(pictureSize(encodePng(createCanvas(40, 30)))).toEqual({ width: 40, height: 30 });
    expect(pictureSize(bytes('GIF89a', le16(120), le16(45)))).toEqual({ width: 120, height: 45 });
    const bmp = bytes('BM', le32(0), le32(0), le32(54), le32(40), le32(49), le32(-640));
    expect(pictureSize(bmp)).toEqual({ width: 49, height: 640 });
    const riff = (chunk: string, body: number[]) => bytes('RIFF', le32(0), 'WEBP', chunk, le32(0), body);
    const lossy = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(800), ...le16(600)]);
    expect(pictureSize(lossy)).toEqual({ width: 800, height: 600 });
    // VP8L: 14 bits of width - 1, then 14 of height - 1, after its signature byte.
    const lossless = riff('VP8L', [0x2f, ...le32(63 | (31 << 14))]);
    expect(pictureSize(lossless)).toEqual({ width: 64, height: 32 });
    const extended = riff('VP8X', [0, 0, 0, 0, 1023 & 0xff, 1023 >> 8, 0, 47, 0, 0]);
    expect(pictureSize(extended)).toEqual({ width: 1024, height: 48 });
  });

  it('reads a JPEG past its APP segments to the frame, and says nothing of what it cannot read', () => {
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...Array<number>(14).fill(0)];
    const frame = [0xff, 0xc2, 0x00, 0x11, 0x08, 0x00, 0x2d, 0x01, 0x40, ...Array<number>(12).fill(0)];
    expect(pictureSize(bytes([0xff, 0xd8], app0, frame))).toEqual({ width: 320, height: 45 });
    // Its frame beyond the bytes read, another kind of file, too few bytes.
    expect(pictureSize(bytes([0xff, 0xd8], app0))).toBeUndefined();
    expect(pictureSize(bytes('%PDF-1.7 and more text'))).toBeUndefined();
    expect(pictureSize(bytes('GIF8'))).toBeUndefined();
  });
});
