/** A work order number: one line of at most this many characters. */
export const WORK_ORDER_MAX_CHARS = 100;

/** The most guides one `listGuides` call answers, and the most ids it takes. */
export const LIST_MAX = 500;

/** The longest text a search takes (a scanned code longer than this is not searched for). */
export const SEARCH_TEXT_MAX = 500;

/** The largest file a technician may attach to a field. */
export const ATTACHMENT_MAX_BYTES = 200 * 1024 * 1024;

/** A drawn signature (a small PNG, base64): plenty for a signature pad, far from a photo. */
export const SIGNATURE_MAX_CHARS = 400_000;
