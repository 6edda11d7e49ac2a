/** Human sizes: 1024-based, one decimal below 10 units ("3.4 MB", "120 MB"). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", then the date. Times are unix seconds. */
export function formatAgo(unixSeconds: number, nowMs: number = Date.now()): string {
  const seconds = Math.max(0, Math.round(nowMs / 1000 - unixSeconds));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  return formatDate(unixSeconds);
}

/**
 * A date or time breaks after a comma only ("Dec 3, 2026, / 05:20 PM"): its other spaces are no-break, so
 * a narrow column never shows "05:20 / PM" or "Dec / 3" (the session report at 1024×600 with Larger text).
 */
const whole = (text: string): string => text.replace(/(?<!,) /g, '\u00a0');

export function formatDate(unixSeconds: number): string {
  return whole(
    new Date(unixSeconds * 1000).toLocaleDateString(undefined, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    }),
  );
}

export function formatDateTime(unixSeconds: number): string {
  return whole(
    new Date(unixSeconds * 1000).toLocaleString(undefined, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }),
  );
}

export { plural } from '../../electron/shared/words.ts';

/** "13 h 33 min", "45 min", "2 h": a stretch of time in words a technician reads at a glance. */
export function formatSpan(seconds: number): string {
  const minutes = Math.max(0, Math.round(seconds / 60));
  const [h, m] = [Math.floor(minutes / 60), minutes % 60];
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** "0:04:07", "12:00:00": hours never wrap, a shift can run long. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * The core writes times into conflict texts as ISO 8601 (UTC), and a sign-off's value as "2026-12-06 16:07
 * UTC" (the site shows it to anyone, wherever they are): both shown in the technician's local time. The
 * report showed a sign-off at "16:07 UTC" beside the same one at "10:07 AM" (a walk in America/Chicago).
 */
export function localTimes(text: string): string {
  const local = (at: number, withSeconds: boolean, was: string): string =>
    Number.isNaN(at)
      ? was
      : whole(
          new Date(at).toLocaleString(undefined, {
            ...(withSeconds ? {} : { year: 'numeric' }),
            month: 'short',
            day: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            ...(withSeconds ? { second: '2-digit' } : {}),
          }),
        );
  return text
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g, (iso) => local(Date.parse(iso), true, iso))
    .replace(/\b(\d{4}-\d\d-\d\d) (\d\d:\d\d) UTC\b/g, (utc, day: string, time: string) =>
      local(Date.parse(`${day}T${time}:00Z`), false, utc),
    );
}

/**
 * A search result's snippet shown whole: a long one (a site's summary) is shortened at a word, with "…",
 * to about `max` characters. Not a layout that clips it: with Larger text on a narrow screen a two-line
 * clamp hid the end of even a short snippet.
 */
export function excerpt(text: string, max = 160): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  const head = (space > max / 2 ? cut.slice(0, space) : plain.slice(0, max)).replace(/[\s,;:.…-]+$/, '');
  return `${head}…`;
}
