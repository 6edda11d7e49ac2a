import { describe, expect, it } from 'vitest';
import { byFit, fittingEncoding, playableEncoding } from '../../electron/shared/media.ts';

describe('media the views show', () => {
  it('plays the encoding the downloader keeps: MP4 first', () => {
    const webm = { url: 'https://s/v.webm', format: 'webm', width: 1, height: 1 };
    const mp4 = { url: 'https://s/v.mp4', format: 'mp4', width: 1, height: 1 };
    expect(playableEncoding([webm, mp4])).toBe(mp4);
    expect(playableEncoding([webm])).toBe(webm);
    expect(playableEncoding([])).toBeNull();
  });
});

describe('the video encoding kept for this laptop', () => {
  const at = (width: number, height: number, format = 'mp4', bytes?: number) => ({
    url: `https://s/${width}.${format}`,
    format,
    width,
    height,
    ...(bytes !== undefined ? { bytes } : {}),
  });
  const encodings = [at(320, 240), at(320, 240, 'webm'), at(640, 480), at(1280, 720), at(1920, 1080)];
  const roomy = { roomBytes: 10 ** 10, short: false };

  it('is the largest at or below the screen, MP4 first, either way round', () => {
    expect(fittingEncoding(encodings, { display: { width: 1366, height: 768 }, ...roomy })?.width).toBe(1280);
    expect(fittingEncoding(encodings, { display: { width: 800, height: 1280 }, ...roomy })?.width).toBe(1280);
    expect(fittingEncoding(encodings, { display: { width: 1024, height: 600 }, ...roomy })?.width).toBe(640);
    expect(fittingEncoding(encodings, { display: null, ...roomy })?.width).toBe(1920);
  });

  it('is the smallest where the budget is short, or where none fits the room left', () => {
    const display = { width: 1920, height: 1080 };
    expect(fittingEncoding(encodings, { display, roomBytes: 0, short: true })?.width).toBe(320);
    const sized = [at(320, 240, 'mp4', 1e6), at(1280, 720, 'mp4', 9e7)];
    expect(fittingEncoding(sized, { display, roomBytes: 5e7, short: false })?.width).toBe(320);
    expect(fittingEncoding([at(4000, 3000)], { display: { width: 1366, height: 768 }, ...roomy })?.width).toBe(4000);
  });

  it('comes first, so what the views play is what the sync keeps', () => {
    const ordered = byFit(encodings, { display: { width: 1366, height: 768 }, ...roomy });
    expect(ordered[0]?.width).toBe(1280);
    expect(playableEncoding(ordered)).toBe(ordered[0]);
    expect(ordered).toHaveLength(encodings.length);
  });
});
