/**
 * The order of the App API's reads of what a window keeps by id (a work session, a quiz attempt): each
 * read's number is larger than any before it, changed or not. A command's answer and an event can reach a
 * window in either order (the web shell carries them on two connections), and the window keeps the later
 * copy (src/lib/read-order.ts). One process holds the data folder (db/folder-lock.ts), and a window lives
 * no longer than it, so a count in this process is enough.
 */
let reads = 0;

export const nextRead = (): number => ++reads;
