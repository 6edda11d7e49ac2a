import { describe, expect, it } from 'vitest';
import type { ImageVariants } from '../../electron/contract.ts';
import { zoomCandidates, zoomVariant } from '../../electron/shared/media.ts';
import { qualityBudget, qualitySize } from '../../src/lib/picture-quality.ts';

describe('the picture quality chooser', () => {
  it('says the room each quality takes as an estimate, and what is already here', () => {
    expect(qualitySize({ quality: 'standard', pictures: 0, stored: 0, bytes: 0, basis: 'stored' })).toBe(
      'No extra room: kept with every guide.',
    );
    expect(qualitySize({ quality: 'large', pictures: 120, stored: 0, bytes: 4.2 * 1024 ** 2, basis: 'site' })).toBe(
      'About 4.2 MB more for 120 pictures.',
    );
    expect(qualitySize({ quality: 'large', pictures: 120, stored: 36, bytes: 4.2 * 1024 ** 2, basis: 'stored' })).toBe(
      'About 4.2 MB more for 120 pictures, 36 already here.',
    );
    expect(qualitySize({ quality: 'original', pictures: 1, stored: 1, bytes: 9585, basis: 'stored' })).toBe(
      'Already here: 1 picture, about 9.4 KB.',
    );
    expect(qualitySize({ quality: 'original', pictures: 3, stored: 0, bytes: null, basis: 'unknown' })).toBe(
      'Size not known yet (3 pictures): the site is asked while it answers.',
    );
    expect(qualitySize({ quality: 'large', pictures: 0, stored: 0, bytes: 0, basis: 'stored' })).toBe(
      'No step pictures in the guides kept offline.',
    );
  });

  it('shows the budget beside the estimates, and that the default takes only the room it has', () => {
    const state = { quality: 'large' as const, options: [], budgetBytes: 2 * 1024 ** 3, mediaBytes: 300 * 1024 ** 2 };
    expect(qualityBudget({ ...state, chosen: true })).toBe('Storage budget 2.0 GB, 300 MB used.');
    expect(qualityBudget({ ...state, chosen: false })).toBe(
      'Storage budget 2.0 GB, 300 MB used. Large is kept until you choose: as many as the budget has room for.',
    );
  });

  it('asks the media route for the best variant first, then the ones that may be stored', () => {
    const image: ImageVariants = {
      id: 1,
      thumbnail: 'https://s/i.thumbnail',
      standard: 'https://s/i.standard',
      medium: 'https://s/i.medium',
      large: 'https://s/i.large',
      original: 'https://s/i',
    };
    expect(zoomCandidates(image)).toEqual([
      'https://s/i',
      'https://s/i.large',
      'https://s/i.standard',
      'https://s/i.thumbnail',
    ]);
    expect(zoomCandidates({ id: 2, standard: 'https://s/j' })).toEqual(['https://s/j']);
    expect([zoomVariant('standard'), zoomVariant('large'), zoomVariant('original')]).toEqual([
      null,
      'large',
      'original',
    ]);
  });
});
