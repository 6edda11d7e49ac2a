import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AttachFileInput, SaveStepDataInput } from '../../../contract.ts';
import { MEDIA_MANAGER_PICTURE, takenAsPicture } from '../../api/user-media-api.ts';
import { OWNER_FILE } from '../../db/owner-only.ts';
import { AppFailure } from '../../result.ts';
import {
  checkFieldValue,
  isMediaField,
  isPhoto,
  NO_FILE_HERE,
  PICTURES_ONLY,
  takesNoFile,
} from '../../../shared/field-values.ts';
import { ATTACHMENT_MAX_BYTES } from '../../../shared/limits.ts';
import { decodeFile, keptFileName } from '../attachments.ts';
import { pictureSize, type PictureSize } from '../picture-size.ts';
import { uploadAction } from '../replay/upload.ts';
import type { SessionAccess } from '../session-access.ts';
import { sessionChain } from '../session-chain.ts';
import { queueStepValues } from '../step-values.ts';
import type { WorkSessionsDeps } from '../work-sessions-deps.ts';

/** Values typed in a step's form, each checked against its field, recorded and queued. */
export function saveStepData(deps: WorkSessionsDeps, access: SessionAccess, input: SaveStepDataInput): void {
  const stamp = deps.clock.stamp();
  deps.store.transaction(() => {
    const session = access.editable(input.sessionId);
    const fields = access.fieldsOfStep(session, input.stepid);
    const checked = input.values.map(({ fieldGuid, value }) => {
      const field = fields.get(fieldGuid);
      if (!field)
        throw new AppFailure('invalid_input', `Field ${fieldGuid} is not on the form of step ${input.stepid}.`, {
          fieldGuid,
        });
      const result = checkFieldValue(field, value);
      if (!result.ok) throw new AppFailure('invalid_input', result.message, { fieldGuid });
      return { field, value: result.value };
    });
    const values = checked.map(({ field, value }) => ({ field, value, attachmentId: undefined }));
    queueStepValues(deps, session, input.stepid, values, { actedAt: access.actingAt(session, stamp), stamp });
  });
}

/**
 * A file the technician attached, saved again in its field (a conflict's Keep mine on a photo: a value typed
 * there is refused, "attach a file instead"): its save queued as an attachment's, the file uploaded already
 * or queued to be.
 */
export function saveAttachedAgain(
  deps: WorkSessionsDeps,
  access: SessionAccess,
  input: { sessionId: string; stepid: number; fieldGuid: string; attachmentId: string },
): void {
  const stamp = deps.clock.stamp();
  deps.store.transaction(() => {
    const session = access.editable(input.sessionId);
    const field = access.fieldsOfStep(session, input.stepid).get(input.fieldGuid);
    if (
      !field ||
      !isMediaField(field.type) ||
      deps.store.sessions.attachment(input.attachmentId)?.sessionId !== session.id
    )
      throw new AppFailure('invalid_input', 'That file is not attached to this field of the session.');
    const values = [{ field, value: null, attachmentId: input.attachmentId }];
    queueStepValues(deps, session, input.stepid, values, { actedAt: access.actingAt(session, stamp), stamp });
  });
}

/** A file of an attachment, on the disk: its id, its name in the attachments folder, its size. */
export interface KeptFile {
  attachmentId: string;
  file: string;
  bytes: number;
  /** Its size in pixels, when it is a picture whose header says it. */
  pixels?: PictureSize;
}

/**
 * Refuses a picture iFixit's media manager would refuse (too big, or smaller than 50 x 50 pixels as its header
 * says): kept and queued, it was refused at the upload hours later, "1 action failed" and the session held behind.
 */
function mediaManagerTakes(name: string, bytes: number, pixels?: PictureSize): void {
  const { maxBytes, minPixels } = MEDIA_MANAGER_PICTURE;
  const shown = path.basename(name);
  if (bytes > maxBytes)
    throw new AppFailure(
      'invalid_input',
      `${shown} is ${Math.ceil(bytes / 1e6)} MB: this site takes photos of at most ${maxBytes / 1e6} MB. ` +
        'Attach a smaller one (a lower resolution in the camera).',
    );
  if (pixels && (pixels.width < minPixels || pixels.height < minPixels))
    throw new AppFailure(
      'invalid_input',
      `${shown} is ${pixels.width} x ${pixels.height} pixels: this site takes photos of at least ` +
        `${minPixels} x ${minPixels} pixels. Attach a larger one.`,
    );
}

/**
 * A file for a step's Image, Video or Document field, written and flushed on the thread pool: on the disk
 * before the transaction that names it commits (`attachFile`), without holding the main process for its
 * flush (a photo of a few MB on a busy disk: 100 ms and more). A write that fails leaves no file.
 */
export async function keepAttachmentFile(deps: WorkSessionsDeps, input: AttachFileInput): Promise<KeptFile> {
  const tooLarge = () =>
    new AppFailure('invalid_input', `The file is larger than ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`);
  // Told from the text's length before a byte is decoded.
  if (Buffer.byteLength(input.dataBase64, 'base64') > ATTACHMENT_MAX_BYTES) throw tooLarge();
  // Refused here, not queued: the site's refusal came at the upload, and held the rest of the session behind it.
  const picturesOnly = deps.picturesOnly?.() ?? false;
  if (picturesOnly && !takenAsPicture(input.name))
    throw new AppFailure('invalid_input', `${PICTURES_ONLY}, so ${path.basename(input.name)} cannot be sent to it.`);
  if (picturesOnly) mediaManagerTakes(input.name, Buffer.byteLength(input.dataBase64, 'base64'));
  const { pieces, size, digest } = await decodeFile(input.dataBase64);
  if (size === 0) throw new AppFailure('invalid_input', 'The file is empty.');
  if (size > ATTACHMENT_MAX_BYTES) throw tooLarge();
  // Read from its first bytes, checked as it is attached (after what its field takes: the field's word first).
  const pixels = pieces[0] && pictureSize(pieces[0]);
  const attachmentId = randomUUID();
  const extension = path
    .extname(input.name)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '')
    .slice(0, 8);
  const file = keptFileName(attachmentId, digest, extension);
  const full = path.join(deps.attachmentsDir, file);
  const handle = await fs.promises.open(full, 'wx', OWNER_FILE);
  try {
    try {
      // Each piece from where the last ended (a handle's writeFile writes at its position, whole).
      for (const piece of pieces) await handle.writeFile(piece);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fs.promises.rm(full, { force: true });
    throw error;
  }
  return { attachmentId, file, bytes: size, ...(pixels ? { pixels } : {}) };
}

/**
 * A file kept on the disk (`keepAttachmentFile`) attached to a step's Image, Video or Document field:
 * recorded and queued for upload in one transaction; its file removed if that fails.
 */
export function attachFile(
  deps: WorkSessionsDeps,
  access: SessionAccess,
  input: AttachFileInput,
  { attachmentId, file, bytes, pixels }: KeptFile,
): void {
  const full = path.join(deps.attachmentsDir, file);
  const stamp = deps.clock.stamp();
  try {
    deps.store.transaction(() => {
      const session = access.editable(input.sessionId);
      const at = access.actingAt(session, stamp);
      const field = access.fieldsOfStep(session, input.stepid).get(input.fieldGuid);
      if (!field || !isMediaField(field.type))
        throw new AppFailure('invalid_input', 'Files can only be attached to Image, Video and Document fields.');
      // Its Video and Document fields want a video's or a document's media item, which it does not make.
      if (takesNoFile(field, deps.picturesOnly?.() ?? false)) throw new AppFailure('invalid_input', NO_FILE_HERE);
      // A photo field takes a picture: a PDF there went up as the site's document, and the site then refused the
      // step's save naming it ("the id of one of your GuideImage media items"), the document left on the site.
      if (field.type === 'Image' && !isPhoto(input.mime) && !takenAsPicture(input.name))
        throw new AppFailure(
          'invalid_input',
          `${path.basename(input.name)} is not a picture: this field takes a photo (JPEG, PNG, GIF or WebP).`,
        );
      // The same in a video field: a photo chosen there (the picker's "All files") was kept, and the site refused
      // the step's save ("the id of one of your GuideVideoObject media items"), the rest of the session behind it.
      if (field.type === 'Video' && !input.mime.startsWith('video/') && !/\.(mp4|m4v|mov|webm)$/i.test(input.name))
        throw new AppFailure(
          'invalid_input',
          `${path.basename(input.name)} is not a video: this field takes a video (MP4, MOV or WebM).`,
        );
      if (deps.picturesOnly?.()) mediaManagerTakes(input.name, bytes, pixels);
      // Letters and digits of every language stay (a photo named "Ventil geprüft.jpg" lost its "ü"), and a copy's
      // "(2)"; anything else becomes "_". The last 120 characters, none cut in half.
      const safeName =
        [...path.basename(input.name).replace(/[^\p{L}\p{M}\p{N}_.\-() ]+/gu, '_')].slice(-120).join('') || 'file';
      deps.store.sessions.insertAttachment({
        id: attachmentId,
        sessionId: input.sessionId,
        file,
        name: safeName,
        // A name of our own making lets a lost upload be found on the site again.
        uploadName: `fg-${attachmentId}-${safeName}`,
        mime: input.mime,
        bytes,
        now: deps.now(),
        technician: session.technician,
      });
      deps.outbox.enqueue(
        uploadAction,
        { sessionId: input.sessionId, attachmentId },
        { chain: sessionChain(input.sessionId), actedAt: at, technician: session.technician, stamp },
      );
      const values = [{ field, value: null, attachmentId }];
      queueStepValues(deps, session, input.stepid, values, { actedAt: at, stamp });
    });
  } catch (error) {
    fs.rmSync(full, { force: true });
    throw error;
  }
}
