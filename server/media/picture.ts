import { createCanvas, drawText, encodePng, fillRect, fillWhere, textWidth, type Canvas, type Rgb } from './png.ts';
import { createRng } from '../prng.ts';

export const PATTERNS = ['stripes', 'rings', 'grid', 'gear', 'plain'] as const;
export type Pattern = (typeof PATTERNS)[number];

/**
 * What a generated image shows. Stored instead of bytes: the PNG is drawn when a variant is fetched, the
 * same spec giving the same picture at every size (shapes are placed in proportions of the canvas).
 */
export interface PictureSpec {
  label: string;
  caption?: string;
  hue: number;
  pattern: Pattern;
  seed: number;
  /** Written into the file as a tEXt chunk, so images that share a picture are still distinct files. */
  tag?: string;
}

export function hsl(h: number, s: number, l: number): Rgb {
  const hue = ((h % 360) + 360) % 360;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

export function renderPicture(spec: PictureSpec, width: number, height: number): Buffer {
  const canvas = createCanvas(width, height);
  const rng = createRng(spec.seed);
  background(canvas, spec.hue);
  pattern(canvas, spec, rng.next(), rng.next());
  part(canvas, spec.hue, rng.next(), rng.next(), rng.chance(0.5));
  labels(canvas, spec);
  return encodePng(canvas);
}

function background(canvas: Canvas, hue: number): void {
  const { width, height } = canvas;
  for (let y = 0; y < height; y++) {
    fillRect(canvas, 0, y, width, 1, hsl(hue, 0.35, 0.86 - 0.2 * (y / height)));
  }
}

function pattern(canvas: Canvas, spec: PictureSpec, a: number, b: number): void {
  const { width: w, height: h } = canvas;
  const ink = hsl(spec.hue, 0.3, 0.62);
  const box = { x: 0, y: 0, w, h: h * 0.82 };
  const unit = Math.max(2, w / 12);
  switch (spec.pattern) {
    case 'stripes':
      fillWhere(canvas, box, ink, (x, y) => Math.floor((x + y * (0.5 + a)) / unit) % 2 === 0);
      return;
    case 'rings': {
      const cx = w * (0.2 + 0.6 * a);
      const cy = h * (0.2 + 0.4 * b);
      fillWhere(
        canvas,
        box,
        ink,
        (x, y) => Math.floor(Math.sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy)) / (unit * 0.7)) % 2 === 0,
      );
      return;
    }
    case 'grid': {
      const line = Math.max(1, w / 200);
      fillWhere(canvas, box, ink, (x, y) => x % unit < line || y % unit < line);
      return;
    }
    case 'gear': {
      const cx = w * (0.25 + 0.15 * a);
      const cy = h * 0.4;
      const r = h * 0.28;
      fillWhere(canvas, { x: cx - r * 1.3, y: cy - r * 1.3, w: r * 2.6, h: r * 2.6 }, ink, (x, y) => {
        const d = Math.sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy));
        const teeth = Math.cos(Math.atan2(y - cy, x - cx) * 10) > 0.3 ? r * 1.2 : r;
        return d < teeth && d > r * 0.35;
      });
      return;
    }
    case 'plain':
      return;
  }
}

/** A contrasting "component": a round or a rounded-rectangular blob. */
function part(canvas: Canvas, hue: number, a: number, b: number, round: boolean): void {
  const { width: w, height: h } = canvas;
  const colour = hsl(hue + 180, 0.55, 0.45);
  const size = Math.min(w, h) * (0.22 + 0.12 * b);
  const cx = w * (0.55 + 0.25 * a);
  const cy = h * 0.38;
  const box = { x: cx - size, y: cy - size, w: size * 2, h: size * 2 };
  if (round) {
    fillWhere(canvas, box, colour, (x, y) => (x - cx) * (x - cx) + (y - cy) * (y - cy) < size * size);
    return;
  }
  const corner = size * 0.3;
  fillWhere(canvas, box, colour, (x, y) => {
    const dx = Math.max(Math.abs(x - cx) - (size - corner), 0);
    const dy = Math.max(Math.abs(y - cy) - (size * 0.7 - corner), 0);
    return dx * dx + dy * dy < corner * corner;
  });
}

function labels(canvas: Canvas, spec: PictureSpec): void {
  const { width: w, height: h } = canvas;
  const bandTop = Math.round(h * 0.82);
  fillRect(canvas, 0, bandTop, w, h - bandTop, hsl(spec.hue, 0.3, 0.18));
  centredText(canvas, spec.label, bandTop, h - bandTop, [255, 255, 255]);
  if (spec.caption) {
    const scale = Math.max(1, Math.floor(h / 90));
    fillRect(canvas, 0, 0, textWidth(spec.caption, scale) + 4 * scale, 11 * scale, [255, 255, 255]);
    drawText(canvas, spec.caption, 2 * scale, 2 * scale, scale, hsl(spec.hue, 0.4, 0.25));
  }
}

function centredText(canvas: Canvas, text: string, top: number, bandHeight: number, colour: Rgb): void {
  const fitHeight = Math.floor((bandHeight * 0.6) / 7);
  const fitWidth = Math.floor((canvas.width * 0.92) / Math.max(1, textWidth(text, 1)));
  const scale = Math.max(1, Math.min(fitHeight, fitWidth));
  const x = (canvas.width - textWidth(text, scale)) / 2;
  drawText(canvas, text, Math.max(1, x), top + (bandHeight - 7 * scale) / 2, scale, colour);
}
