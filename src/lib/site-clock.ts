/**
 * Now on the site's clock, unix seconds: this computer's clock plus the offset the core learned from the
 * site's answers (AppStatus.siteClockOffset). Work sessions and quiz attempts are timed on the site's
 * clock, so a running one is counted with this, never with `Date.now()` alone: an hour between the two
 * clocks would read as an hour of work, or none.
 */
export const siteNow = (offsetSeconds: number, nowMs: number = Date.now()): number => nowMs / 1000 + offsetSeconds;

/** How long until the site's clock, at `seconds`, shows its next whole second (and 1 ms past it). */
export const msToNextSecond = (seconds: number): number => Math.ceil((1 - (seconds - Math.floor(seconds))) * 1000) + 1;
