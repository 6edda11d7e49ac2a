// What a comment may be, as the site's description says (POST and PATCH /comments: text of 12 to 4096
// characters, "including markup"), and how long its author may change it after the site took it: checked
// before a comment is queued, so one the site would refuse is said at once, not hours later in the sync centre.

export const COMMENT_MIN_CHARS = 12;
export const COMMENT_MAX_CHARS = 4096;

/** Seconds after the site took a comment during which its author may edit or delete it. */
export const COMMENT_EDIT_SECONDS = 5 * 60;

/**
 * A comment's length as the site counts it: the text as sent (trimmed, its markup included), in characters
 * (the description's minLength and maxLength), not UTF-16 units: "Belt ok 👍👍👍" is 11 for the site, not 14.
 */
export const commentLength = (text: string): number => [...text.trim()].length;

/** What is wrong with a comment's text, in plain words with what to change, or null when the site will take it. */
export function commentTextProblem(text: string): string | null {
  const length = commentLength(text);
  if (length < COMMENT_MIN_CHARS)
    return `A comment needs at least ${COMMENT_MIN_CHARS} characters: add ${COMMENT_MIN_CHARS - length} more.`;
  if (length > COMMENT_MAX_CHARS)
    return (
      `A comment can have at most ${COMMENT_MAX_CHARS} characters, markup included: this one has ${length}, ` +
      `remove ${length - COMMENT_MAX_CHARS}.`
    );
  return null;
}

/** Whether a comment the site took at `postedAt` may still be changed at `siteNow` (both unix seconds). */
export const commentStillEditable = (postedAt: number, siteNow: number): boolean =>
  siteNow - postedAt < COMMENT_EDIT_SECONDS;
