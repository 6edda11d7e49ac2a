import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AttachmentData, UnreadableAttachment } from '../../contract.ts';
import type { Store } from '../db/store.ts';
import type { AttachmentRecord } from '../db/repos/sessions-repo.ts';
import { PICTURES_ONLY } from '../../shared/field-values.ts';
import { AppFailure } from '../result.ts';
import { NOT_YOURS } from './session-access.ts';

/** How much of the file's SHA-256 its name carries (hex): enough to tell any change on the disk. */
const DIGEST_CHARS = 32;

/**
 * The name an attached file is kept under in the attachments folder: its attachment's id, the start of
 * the SHA-256 of its bytes (`digest`, hex: what `keptBytes` checks them against) and its extension.
 */
export function keptFileName(attachmentId: string, digest: string, extension: string): string {
  return `${attachmentId}-${digest.slice(0, DIGEST_CHARS)}${extension}`;
}

/** Base64 characters decoded at a time (a multiple of 4: 6 MiB of bytes), a turn of the event loop between. */
const PIECE_CHARS = 8 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A file given as base64 (the App API carries JSON-safe values), checked, decoded and hashed a piece at a
 * time: a 200 MB video, checked by one regex, decoded and hashed whole, held the main thread 0.4 to 1 s
 * when it was attached (`npm run bench` with BENCH_ONLY=big-file); a piece takes a few milliseconds.
 */
export async function decodeFile(base64: string): Promise<{ pieces: Buffer[]; size: number; digest: string }> {
  const hash = createHash('sha256');
  const pieces: Buffer[] = [];
  let size = 0;
  for (let at = 0; at < base64.length; at += PIECE_CHARS) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const text = base64.slice(at, at + PIECE_CHARS);
    // Padding ends the whole text only.
    if (!BASE64.test(text) || (at + PIECE_CHARS < base64.length && text.includes('=')))
      throw new AppFailure('invalid_input', 'The file could not be read: it is not base64.');
    const piece = Buffer.from(text, 'base64');
    hash.update(piece);
    pieces.push(piece);
    size += piece.length;
  }
  return { pieces, size, digest: hash.digest('hex') };
}

const DIGEST_IN_NAME = new RegExp(`^[0-9a-f-]{36}-([0-9a-f]{${DIGEST_CHARS}})(?:\\.|$)`);

/**
 * An attached file's bytes as they were saved, or what became of them: gone from the disk, or changed on
 * it since (their size, or the SHA-256 the file's name carries; a file kept by a version before the
 * digest is checked by its size alone). A damaged photo is never sent or shown as the one taken.
 */
export function keptBytes(
  attachmentsDir: string,
  attachment: Pick<AttachmentRecord, 'file' | 'bytes'>,
): { ok: true; bytes: Buffer } | { ok: false; problem: 'missing' | 'damaged' } {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(attachmentsDir, attachment.file));
  } catch {
    return { ok: false, problem: 'missing' };
  }
  const digest = DIGEST_IN_NAME.exec(attachment.file)?.[1];
  const sound =
    bytes.length === attachment.bytes &&
    (digest === undefined || createHash('sha256').update(bytes).digest('hex').startsWith(digest));
  return sound ? { ok: true, bytes } : { ok: false, problem: 'damaged' };
}

/**
 * `keptBytes` for an upload, without holding the main thread: the file read on the thread pool, its SHA-256
 * taken 8 MiB at a time with a turn of the event loop between (a 200 MB video's read and hash held it 0.3 s).
 */
export async function keptBytesRead(
  attachmentsDir: string,
  attachment: Pick<AttachmentRecord, 'file' | 'bytes'>,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; problem: 'missing' | 'damaged' }> {
  let bytes: Buffer;
  try {
    const read = await readWhole(path.join(attachmentsDir, attachment.file), attachment.bytes);
    if (read === null) return { ok: false, problem: 'damaged' };
    bytes = read;
  } catch {
    return { ok: false, problem: 'missing' };
  }
  const digest = DIGEST_IN_NAME.exec(attachment.file)?.[1];
  if (digest === undefined) return { ok: true, bytes };
  const hash = createHash('sha256');
  const PIECE = 8 * 1024 * 1024;
  for (let at = 0; at < bytes.length; at += PIECE) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    hash.update(bytes.subarray(at, at + PIECE));
  }
  return hash.digest('hex').startsWith(digest) ? { ok: true, bytes } : { ok: false, problem: 'damaged' };
}

/**
 * A file's bytes read on the thread pool in as few reads as the OS gives (fs.promises.readFile reads 512 KiB
 * a promise, twice as slow for a 25 MB video); null when its size is not `size` (not read then).
 */
async function readWhole(file: string, size: number): Promise<Buffer | null> {
  const handle = await fs.promises.open(file, 'r');
  try {
    if ((await handle.stat()).size !== size) return null;
    const bytes = Buffer.allocUnsafe(size);
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) return null;
      at += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/**
 * `keptBytes`'s check without keeping the bytes, read in pieces of 1 MiB: the main thread hashes one piece
 * at a time (half a millisecond) between reads on the thread pool, and answers the screens meanwhile. Read
 * whole, a 200 MB video held it 0.4 s at each Finish review (`npm run bench` with BENCH_ONLY=big-file).
 */
export async function keptFileSound(
  attachmentsDir: string,
  attachment: Pick<AttachmentRecord, 'file' | 'bytes'>,
): Promise<{ ok: true } | { ok: false; problem: 'missing' | 'damaged' }> {
  const digest = DIGEST_IN_NAME.exec(attachment.file)?.[1];
  const hash = createHash('sha256');
  let size = 0;
  try {
    const pieces = fs.createReadStream(path.join(attachmentsDir, attachment.file), { highWaterMark: 1024 * 1024 });
    for await (const piece of pieces as AsyncIterable<Buffer>) {
      size += piece.length;
      if (size > attachment.bytes) {
        pieces.destroy();
        return { ok: false, problem: 'damaged' };
      }
      if (digest !== undefined) hash.update(piece);
    }
  } catch {
    return { ok: false, problem: 'missing' };
  }
  const sound = size === attachment.bytes && (digest === undefined || hash.digest('hex').startsWith(digest));
  return sound ? { ok: true } : { ok: false, problem: 'damaged' };
}

/** The name a technician gave an attached file (its upload's name without the id Fieldguide puts first). */
export function attachedName(attachment: Pick<AttachmentRecord, 'uploadName'>): string {
  return attachment.uploadName.replace(/^fg-[0-9a-f-]{36}-/, '');
}

/** What the technician is told of an attached file that `keptBytes` could not give back. */
export function keptFileProblem(name: string, problem: 'missing' | 'damaged', sessionOpen: boolean): string {
  const what =
    problem === 'missing'
      ? `The attached file ${name} is missing from this computer.`
      : `The attached file ${name} was damaged on this computer's disk after it was saved (its bytes are not the ` +
        'ones saved), so it is not sent.';
  // An ended session takes no file: "attach it again" could not be done (its upload's discard lets the rest go).
  return sessionOpen
    ? `${what} Attach it again if you still have it, or take it again.`
    : `${what} The session has ended, so nothing can be attached to it: discard this to send the rest of it.`;
}

/**
 * What the technician is told of a file the site refused for good (`words`: the site's own, "The file is
 * larger than 25 MiB"), in the sync centre and at the file's step alike: attaching another in its place
 * drops this upload (unsent-files.ts); an ended session takes no file, and only the discard frees the rest.
 */
export function refusedFileProblem(name: string, words: string, sessionOpen: boolean): string {
  // The site names the file by the upload's own name (`fg-<id>-notes.jpg: not a readable…`): not the technician's.
  const theirs = words.replace(/fg-[0-9a-f-]{36}-[^:]*:\s*/g, '').replace(/fg-[0-9a-f-]{36}-/g, '');
  const what = `The site did not take the file ${name}: ${theirs.replace(/[.\s]+$/, '')}.`;
  // Nothing attached in its place would go: such a site's Video and Document fields take no file at all.
  if (words.startsWith(PICTURES_ONLY)) return `${what} Discard its upload in the sync centre to send the rest.`;
  return sessionOpen
    ? `${what} Attach another in its place, or discard its upload in the sync centre to send the rest of the session.`
    : `${what} The session has ended, so nothing can be attached to it: discard its upload in the sync centre to ` +
        'send the rest of it.';
}

/** What the technician is told of a file `keptBytes` could not give back, where the file is shown. */
function unreadableWords(problem: 'missing' | 'damaged'): string {
  return problem === 'missing'
    ? 'The attached file is no longer on this computer.'
    : "The file was damaged on this computer's disk after it was saved, so it is not sent.";
}

/**
 * The session's files not uploaded yet that will not be sent as they are: those that cannot be read back as
 * they were saved, and those whose upload the site refused (`refused`: the failed upload's words). Each is
 * read and checked whole (a photo: milliseconds; a video at the 200 MB limit: about a quarter of a second, in
 * pieces off the main thread's way: `keptFileSound`), when the technician asks to finish. Only the technician
 * whose session it is may ask.
 */
export async function unreadableAttachments(
  store: Store,
  attachmentsDir: string,
  technician: number,
  sessionId: string,
): Promise<UnreadableAttachment[]> {
  if (store.sessions.technicianOf(sessionId) !== technician)
    throw new AppFailure('not_found', NOT_YOURS, { sessionId });
  const found: UnreadableAttachment[] = [];
  const notSent = store.sessions.refusedUploads(sessionId);
  for (const value of store.sessions.values(sessionId)) {
    const attachment = value.attachmentId ? store.sessions.attachment(value.attachmentId) : undefined;
    if (!attachment || attachment.serverItemid !== null) continue;
    const { stepid, fieldGuid } = value;
    const kept = await keptFileSound(attachmentsDir, attachment);
    if (!kept.ok) {
      found.push({
        attachmentId: attachment.id,
        stepid,
        fieldGuid,
        problem: unreadableWords(kept.problem),
        refused: false,
      });
      continue;
    }
    const refused = notSent.get(attachment.id);
    if (refused !== undefined)
      found.push({ attachmentId: attachment.id, stepid, fieldGuid, problem: refused, refused: true });
  }
  return found;
}

/**
 * A file attached to a step field, read back from this computer (the session report shows the photos
 * with the site stopped). Only the technician whose session it is may read it.
 */
export function readAttachment(
  store: Store,
  attachmentsDir: string,
  technician: number,
  attachmentId: string,
): AttachmentData {
  const attachment = store.sessions.attachment(attachmentId);
  if (!attachment || store.sessions.technicianOf(attachment.sessionId) !== technician) {
    throw new AppFailure('not_found', 'There is no such attached file on this computer.', { attachmentId });
  }
  const name = attachedName(attachment);
  const kept = keptBytes(attachmentsDir, attachment);
  if (!kept.ok) throw new AppFailure('not_found', unreadableWords(kept.problem), { attachmentId });
  return { name, mime: attachment.mime, dataBase64: kept.bytes.toString('base64') };
}
