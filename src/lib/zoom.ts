/**
 * Zoom and pan of a picture that fills its frame at scale 1 (object-fit: contain), drawn with
 * `translate(x, y) scale(s)` about the frame's centre. Points are relative to the frame's centre.
 */
export interface View {
  scale: number;
  x: number;
  y: number;
}

export const FIT: View = { scale: 1, x: 0, y: 0 };
export const MAX_SCALE = 8;

/** Keeps the picture over the frame: no panning past its edges, no zooming out past the fit. */
export function clampView(view: View, frame: { width: number; height: number }): View {
  const scale = Math.min(MAX_SCALE, Math.max(1, view.scale));
  const maxX = ((scale - 1) * frame.width) / 2;
  const maxY = ((scale - 1) * frame.height) / 2;
  return { scale, x: Math.min(maxX, Math.max(-maxX, view.x)), y: Math.min(maxY, Math.max(-maxY, view.y)) };
}

/** Zooms by `factor` keeping the point under `at` where it is (the cursor, a pinch's middle). */
export function zoomAt(
  view: View,
  factor: number,
  at: { x: number; y: number },
  frame: { width: number; height: number },
): View {
  const scale = Math.min(MAX_SCALE, Math.max(1, view.scale * factor));
  const ratio = scale / view.scale;
  return clampView({ scale, x: at.x - (at.x - view.x) * ratio, y: at.y - (at.y - view.y) * ratio }, frame);
}

export function panBy(view: View, dx: number, dy: number, frame: { width: number; height: number }): View {
  return clampView({ ...view, x: view.x + dx, y: view.y + dy }, frame);
}

/**
 * How big the picture is on the screen against its own pixels (1: one picture pixel per screen pixel):
 * fitted into the frame (contain, so a small picture is stretched to the frame), times the zoom, times
 * the screen's device pixels per CSS pixel. Null until the picture's own size is known.
 */
export function pixelScale(
  view: View,
  natural: { width: number; height: number },
  frame: { width: number; height: number },
  devicePixelRatio = 1,
): number | null {
  if (natural.width <= 0 || natural.height <= 0 || frame.width <= 0 || frame.height <= 0) return null;
  const fit = Math.min(frame.width / natural.width, frame.height / natural.height);
  return fit * view.scale * devicePixelRatio;
}
