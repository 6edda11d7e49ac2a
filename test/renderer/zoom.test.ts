import { describe, expect, it } from 'vitest';
import { clampView, FIT, MAX_SCALE, panBy, zoomAt } from '../../src/lib/zoom.ts';

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
});
