import { describe, expect, it } from 'vitest';
import {
  PICTURE_MAX_HEIGHT,
  PICTURE_MIN_HEIGHT,
  PICTURE_WHOLE_HEIGHT,
  pictureHeight,
} from '../../src/lib/picture-room.ts';

describe('run mode: the pictures take the room left under the instructions', () => {
  it('puts two pictures side by side when the row is what limits them', () => {
    // One row: (740 - 8) / 2 wide, 274 high; two rows: 196 high each. One row wins.
    expect(pictureHeight({ count: 2, width: 740, height: 400, margin: 0, gap: 8 })).toBe(274);
  });

  it('stacks them when the height allows more that way', () => {
    // One row of three: 100 px high; three rows of one: (1000 - 16) / 3 = 328 high, 437 wide: fits 500.
    expect(pictureHeight({ count: 3, width: 500, height: 1000, margin: 0, gap: 8 })).toBe(328);
  });

  it('never goes under the thumbnail, nor over the step size the laptop keeps', () => {
    expect(pictureHeight({ count: 2, width: 700, height: 40, margin: 0, gap: 8 })).toBe(PICTURE_MIN_HEIGHT);
    expect(pictureHeight({ count: 1, width: 2000, height: 2000, margin: 0, gap: 8 })).toBe(PICTURE_MAX_HEIGHT);
    expect(pictureHeight({ count: 0, width: 800, height: 800, margin: 0, gap: 8 })).toBe(PICTURE_MIN_HEIGHT);
  });

  it('leaves room for the padding under them when they grow, and is the thumbnail when it is whole', () => {
    // 300 high with 30 of padding under: 270 for the picture, the padding in view too.
    expect(pictureHeight({ count: 1, width: 800, height: 300, margin: 30, gap: 8 })).toBe(270);
    // 120 high: grown would be 90, short of the thumbnail, which is whole (its padding scrolls).
    expect(pictureHeight({ count: 1, width: 800, height: 120, margin: 30, gap: 8 })).toBe(PICTURE_MIN_HEIGHT);
  });

  it('shrinks a little below the thumbnail to stay whole, and no further', () => {
    // 99 px to the step bar: a thumbnail would be cut by 3 px; 99 is whole.
    expect(pictureHeight({ count: 1, width: 800, height: 99, margin: 30, gap: 8 })).toBe(99);
    expect(pictureHeight({ count: 2, width: 800, height: PICTURE_WHOLE_HEIGHT, margin: 30, gap: 8 })).toBe(
      PICTURE_WHOLE_HEIGHT,
    );
    // Far short: the thumbnail, and the step area scrolls to it.
    expect(pictureHeight({ count: 1, width: 800, height: 60, margin: 30, gap: 8 })).toBe(PICTURE_MIN_HEIGHT);
  });

  it('keeps every picture inside the row and the room it gives', () => {
    for (const count of [1, 2, 3, 4, 5, 7])
      for (const width of [300, 520, 760, 1100])
        for (const height of [150, 260, 480, 900]) {
          const h = pictureHeight({ count, width, height, margin: 20, gap: 8 });
          if (h === PICTURE_MIN_HEIGHT) continue;
          // Some number of rows holds them all at this size.
          const fits = Array.from({ length: count }, (_, i) => i + 1).some((rows) => {
            const perRow = Math.ceil(count / rows);
            return (
              perRow * ((h * 4) / 3) + (perRow - 1) * 8 <= width + 0.5 && rows * h + (rows - 1) * 8 <= height + 0.5
            );
          });
          expect(fits, `${count} in ${width}×${height}: ${h}`).toBe(true);
        }
  });
});
