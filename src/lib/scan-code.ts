import type { CategoryNode } from '../../electron/contract.ts';

/**
 * What a scanned code (the webcam's QR or barcode, or a USB scanner typing into the search box) names:
 * a guide by its id, a category by its name, or nothing known. Pure: the caller checks that the guide
 * is on this computer and opens it.
 */
export type ScannedCode =
  | { kind: 'guide'; guideid: number; text: string }
  | { kind: 'category'; name: string; text: string }
  | { kind: 'unknown'; text: string; otherSite: string | null };

export interface ScanPlace {
  /** The site's address (SiteInfo.url), or null before any site. */
  siteUrl: string | null;
  /** The window's own origin: the app's own links (`app://fieldguide/guides/12`, the web shell's). */
  appOrigin: string;
  categories: readonly CategoryNode[];
}

/** A guide id as sites number them: a bare number, not an article number of twelve digits. */
const GUIDE_ID = /^\d{1,9}$/;
/** The site's pages of a guide: `/Guide/<title>/<id>`, `/Guide/print/<id>`, `/Teardown/<title>/<id>`. */
const SITE_GUIDE = /^\/(?:Guide|Teardown)\/(?:[^/]+\/)?(\d{1,9})(?:\/|$)/i;
const SITE_DEVICE = /^\/Device\/([^/]+)\/?$/i;
const APP_GUIDE = /^\/guides\/(\d{1,9})\/?$/;

/** Scanners add a carriage return, a tab or a group separator; a code is read without them. */
export function cleanCode(raw: string): string {
  return raw.replace(/\p{Cc}+/gu, ' ').trim();
}

/** `www.` aside, the same host and port: iFixit's codes say `www.ifixit.com` for `https://ifixit.com`. */
function sameHost(a: URL, b: URL): boolean {
  const bare = (url: URL) => url.host.toLowerCase().replace(/^www\./, '');
  return bare(a) === bare(b);
}

function parseUrl(text: string): URL | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** The category (by name or title, any case) that a name means, from the stored tree. */
export function findCategory(categories: readonly CategoryNode[], name: string): CategoryNode | null {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return null;
  for (const node of categories) {
    if (node.name.toLowerCase() === wanted || node.title.toLowerCase() === wanted) return node;
    const below = findCategory(node.children, name);
    if (below) return below;
  }
  return null;
}

function fromSitePath(path: string, text: string, place: ScanPlace): ScannedCode {
  const guide = SITE_GUIDE.exec(path);
  if (guide) return { kind: 'guide', guideid: Number(guide[1]), text };
  const device = SITE_DEVICE.exec(path);
  if (device) {
    let name: string;
    try {
      name = decodeURIComponent(device[1]!.replace(/\+/g, ' ')).replace(/_/g, ' ');
    } catch {
      return { kind: 'unknown', text, otherSite: null };
    }
    const found = findCategory(place.categories, name);
    if (found) return { kind: 'category', name: found.name, text };
  }
  return { kind: 'unknown', text, otherSite: null };
}

function fromUrl(url: URL, text: string, place: ScanPlace): ScannedCode {
  const app = parseUrl(place.appOrigin);
  if (app && url.origin === app.origin) {
    const own = APP_GUIDE.exec(url.pathname);
    return own ? { kind: 'guide', guideid: Number(own[1]), text } : { kind: 'unknown', text, otherSite: null };
  }
  const site = place.siteUrl ? parseUrl(place.siteUrl) : null;
  if (!site || !sameHost(url, site)) return { kind: 'unknown', text, otherSite: url.host };
  // A site at a path (`https://example.com/dozuki`) has its pages below that path.
  const base = site.pathname.replace(/\/+$/, '');
  const path = base && url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : url.pathname;
  return fromSitePath(path, text, place);
}

/** A link to one of the site's (or the app's) guides: never a step form's answer (lib/scanner-keys.ts). */
export function isGuideLink(raw: string, place: Omit<ScanPlace, 'categories'>): boolean {
  const text = cleanCode(raw);
  const url = parseUrl(text);
  return url !== null && fromUrl(url, text, { ...place, categories: [] }).kind === 'guide';
}

/** What the code names, read offline: a link of the site or of the app, a guide id, a category's name. */
export function readScannedCode(raw: string, place: ScanPlace): ScannedCode {
  const text = cleanCode(raw);
  if (GUIDE_ID.test(text)) return { kind: 'guide', guideid: Number(text), text };
  const url = parseUrl(text);
  if (url) return fromUrl(url, text, place);
  const found = findCategory(place.categories, text);
  if (found) return { kind: 'category', name: found.name, text };
  return { kind: 'unknown', text, otherSite: null };
}

/** A link or a bare number: nobody searches the guides' words for these, so Enter opens what they name. */
export function looksLikeCode(raw: string): boolean {
  const text = cleanCode(raw);
  return GUIDE_ID.test(text) || parseUrl(text) !== null;
}

/**
 * A code as labels carry one: a link, or one run of characters without a space that has a digit in it (an
 * article number, a work order "WO-6611", a part number) or is in capitals joined by a dash, a dot or a slash
 * ("WO-NOT-HERE"). Words are not ("belt", "drive belt", "o-ring"): typed in a burst by a quick hand, then
 * Enter, they were said as a code that matched nothing.
 */
export function codeLike(raw: string): boolean {
  const text = cleanCode(raw);
  if (parseUrl(text) !== null) return true;
  if (!text || /\s/.test(text)) return false;
  return /\d/.test(text) || (/[-_./]/.test(text) && !/\p{Ll}/u.test(text));
}

/**
 * A USB barcode scanner is a keyboard that types a whole code in one burst at a machine's steady pace, then
 * its suffix, Enter, as one more key of that burst. A person, however quick, is not steady: a key struck
 * twice ("10mm"), a reach across the keyboard or to Enter takes longer than a scanner's keys ever do, and
 * a fast typist's short search then Enter was said as an unknown code. The keys' times (ms) of the text in
 * the box and the Enter's: typed by a scanner when there are at least four keys, the Enter came at the
 * burst's pace, and no key was slow; a long code may have one slow key in eight (a busy machine's hiccup:
 * no hand keeps a scanner's pace over a long code to make up for it).
 */
export const SCANNER_KEY_GAP_MS = 50;
/** A code this long or longer may have one slow key in eight. */
const SCANNER_LONG_CODE = 8;
export function typedByScanner(keyTimes: readonly number[], textLength: number, enterAt: number | null): boolean {
  if (textLength < 4 || keyTimes.length < textLength || enterAt === null) return false;
  const recent = keyTimes.slice(-textLength);
  const gaps = [...recent.slice(1), enterAt].map((time, i) => time - recent[i]!);
  if (gaps.at(-1)! >= SCANNER_KEY_GAP_MS) return false;
  const slow = gaps.filter((gap) => gap >= SCANNER_KEY_GAP_MS).length;
  return slow <= (textLength >= SCANNER_LONG_CODE ? Math.floor(gaps.length / 8) : 0);
}

/** What an unknown code is said as, in plain words; the code stays in the search box. */
export function unknownCodeWords(code: Extract<ScannedCode, { kind: 'unknown' }>, siteUrl: string | null): string {
  if (code.otherSite) {
    const ours = siteUrl ? (parseUrl(siteUrl)?.host ?? siteUrl) : 'no site yet';
    return (
      `The code “${code.text}” is a link to another site (${code.otherSite}), not to this one (${ours}): ` +
      'searching for it instead.'
    );
  }
  return `No guide or category on this computer matches the code “${code.text}”: searching for it instead.`;
}
