import { describe, expect, it } from 'vitest';
import { clampView, FIT, MAX_SCALE, panBy, pixelScale, zoomAt } from '../../src/lib/zoom.ts';

const frame = { width: 800, height: 600 };

describe('zooming and panning a picture', () => {
  it('keeps the point under the cursor in place', () => {
    const at = { x: 200, y: -100 };
    const view = zoomAt(FIT, 2, at, frame);
    expect(view.scale).toBe(2);
    // The picture point under `at` before (at / 1) is under `at` after: (at - t) / s is unchanged.
    expect((at.x - view.x) / view.scale).toBeCloseTo(at.x);
    expect((at.y - view.y) / view.scale).toBeCloseTo(at.y);
  });

  it('never zooms out past the fit nor in past the limit', () => {
    expect(zoomAt(FIT, 0.5, { x: 0, y: 0 }, frame)).toEqual(FIT);
    expect(zoomAt(FIT, 100, { x: 0, y: 0 }, frame).scale).toBe(MAX_SCALE);
  });

  it('does not pan the picture off its frame', () => {
    const zoomed = zoomAt(FIT, 2, { x: 0, y: 0 }, frame);
    expect(panBy(zoomed, 10_000, -10_000, frame)).toEqual({ scale: 2, x: 400, y: -300 });
    expect(panBy(FIT, 50, 50, frame)).toEqual(FIT);
    expect(clampView({ scale: 3, x: -5000, y: 0 }, frame).x).toBe(-800);
  });

  it('says the true scale: a small picture stretched to the frame is more than 100 %', () => {
    // Issue 29: a 300x225 picture fitted to a 912-pixel frame was labelled 100 %.
    const stage = { width: 912, height: 684 };
    expect(pixelScale(FIT, { width: 300, height: 225 }, stage)).toBeCloseTo(3.04);
    expect(pixelScale(FIT, { width: 912, height: 684 }, stage)).toBe(1);
    expect(pixelScale({ scale: 2, x: 0, y: 0 }, { width: 1824, height: 1368 }, stage)).toBe(1);
    // The narrower side decides the fit; device pixels count on a dense screen.
    expect(pixelScale(FIT, { width: 800, height: 1200 }, stage)).toBeCloseTo(0.57);
    expect(pixelScale(FIT, { width: 1824, height: 1368 }, stage, 2)).toBe(1);
    expect(pixelScale(FIT, { width: 0, height: 0 }, stage)).toBeNull();
  });
});
