import type { GuideFlag, GuideLine, GuideType, VideoEncoding } from '../../electron/contract.ts';
import { isMp4 } from '../../electron/shared/media.ts';

export const GUIDE_TYPES: readonly GuideType[] = [
  'replacement',
  'installation',
  'repair',
  'disassembly',
  'teardown',
  'technique',
  'maintenance',
  // iFixit's sites have how-to guides too (its OpenAPI `GuideType`): without it here, no filter found them.
  'how-to',
];

export const typeLabel = (type: string): string => (type ? type.charAt(0).toUpperCase() + type.slice(1) : 'Guide');

/** Flags that warn of injury or death: shown as banners at the top of a guide. */
export const SAFETY_FLAGS = ['DEATH', 'DANGER'] as const;

export function safetyFlags(flags: readonly GuideFlag[]): GuideFlag[] {
  return SAFETY_FLAGS.flatMap((id) => flags.filter((flag) => flag.flagid === id));
}

/** A caution line of a step (the caution icon, or the red bullet): run mode keeps these in view above the step. */
export const isCautionLine = (line: GuideLine): boolean => line.bullet === 'icon_caution' || line.bullet === 'red';

/**
 * A step's lines under run mode's hazard strip, which shows its caution lines already: those are not
 * listed a second time (at 1024×600 the repeat took two lines of the step's room). A caution with lines
 * under it stays, so they are not left under the line before it.
 */
export function linesBesideCautions(lines: readonly GuideLine[]): GuideLine[] {
  return lines.filter((line, i) => !isCautionLine(line) || (lines[i + 1]?.level ?? 0) > line.level);
}

/** Other flags worth a word (the site's own GUIDE_* bookkeeping flags are not shown). */
export function otherFlags(flags: readonly GuideFlag[]): GuideFlag[] {
  return flags.filter(
    (flag) => !(SAFETY_FLAGS as readonly string[]).includes(flag.flagid) && !flag.flagid.startsWith('GUIDE_'),
  );
}

/**
 * A coloured bullet carries its meaning in a shape and a name too, never in colour alone (the forklift
 * guide says "any red item takes the truck out of service"): `label` is null for the plain black dot.
 */
export type BulletShape = 'dot' | 'octagon' | 'diamond' | 'triangle' | 'circle' | 'square' | 'hexagon';
export type BulletKind =
  | { kind: 'dot'; colour: string; shape: BulletShape; label: string | null }
  | { kind: 'icon'; icon: 'note' | 'caution' | 'reminder'; label: string };

const MARKS: Record<string, { shape: BulletShape; label: string }> = {
  red: { shape: 'octagon', label: 'Red' },
  orange: { shape: 'diamond', label: 'Orange' },
  yellow: { shape: 'triangle', label: 'Yellow' },
  green: { shape: 'circle', label: 'Green' },
  blue: { shape: 'square', label: 'Blue' },
  light_blue: { shape: 'square', label: 'Light blue' },
  violet: { shape: 'hexagon', label: 'Violet' },
};

const COLOURS: Record<string, string> = {
  black: '#1d2321',
  red: '#c62828',
  orange: '#e46f0a',
  yellow: '#e0b400',
  green: '#2e8b3d',
  blue: '#1f5fbf',
  light_blue: '#3fa7e0',
  violet: '#7b3fb5',
};

/** How a step line's bullet looks; an unknown bullet is a black dot. */
export function bulletKind(bullet: string): BulletKind {
  switch (bullet) {
    case 'icon_note':
      return { kind: 'icon', icon: 'note', label: 'Note' };
    case 'icon_caution':
      return { kind: 'icon', icon: 'caution', label: 'Caution' };
    case 'icon_reminder':
      return { kind: 'icon', icon: 'reminder', label: 'Reminder' };
    default:
      return {
        kind: 'dot',
        colour: COLOURS[bullet] ?? COLOURS.black!,
        shape: MARKS[bullet]?.shape ?? 'dot',
        label: MARKS[bullet]?.label ?? null,
      };
  }
}

export function videoMime(encoding: VideoEncoding): string | undefined {
  if (isMp4(encoding)) return 'video/mp4';
  if (/webm/i.test(encoding.format) || /\.webm($|\?)/i.test(encoding.url)) return 'video/webm';
  if (/ogg|ogv/i.test(encoding.format) || /\.ogv($|\?)/i.test(encoding.url)) return 'video/ogg';
  return undefined;
}

/** An address that may leave the app: http and https only, anything else is null (shared/web-address.ts). */
export { webAddress as externalUrl } from '../../electron/shared/web-address.ts';

/**
 * The `lang` of a guide's own text (a step's title and lines, the guide's title and introduction): the
 * language the site or its translation says it is in, as a BCP 47 tag (a site's `en_US` is `en-US`), so a
 * screen reader reads German text in German inside the app's English. Undefined: the page's own.
 */
export function textLang(
  guide: { language?: { langid: string } | null } | null,
  step?: { langid?: string },
): string | undefined {
  const langid = step?.langid || guide?.language?.langid;
  return langid ? langid.replace(/_/g, '-') : undefined;
}
