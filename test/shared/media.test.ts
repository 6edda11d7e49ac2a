import { describe, expect, it } from 'vitest';
import { playableEncoding } from '../../electron/shared/media.ts';

describe('media the views show', () => {
  it('plays the encoding the downloader keeps: MP4 first', () => {
    const webm = { url: 'https://s/v.webm', format: 'webm', width: 1, height: 1 };
    const mp4 = { url: 'https://s/v.mp4', format: 'mp4', width: 1, height: 1 };
    expect(playableEncoding([webm, mp4])).toBe(mp4);
    expect(playableEncoding([webm])).toBe(webm);
    expect(playableEncoding([])).toBeNull();
  });
});
