import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { uploadMedia } from '../../api/work-log-api.ts';
import type { uploadPayload } from '../payloads.ts';
import type { Handler } from '../replay-context.ts';

const currentMediaWire = z.union([
  z.array(z.unknown()),
  z.object({ results: z.array(z.unknown()) }).loose().transform((o) => o.results),
  z.object({ items: z.array(z.unknown()) }).loose().transform((o) => o.items),
]);
const itemWire = z
  .object({
    id: z.number().int().nullish(),
    itemid: z.number().int().nullish(),
    name: z.string().nullish(),
    filename: z.string().nullish(),
  })
  .loose();

/**
 * An upload is not idempotent either: when an earlier attempt may have landed, look for our own file
 * name (it carries the attachment's id) among the user's media before sending the bytes again.
 */
export const replayUpload: Handler<z.infer<typeof uploadPayload>> = async (ctx, row, payload) => {
  const attachment = ctx.sessions.attachment(payload.attachmentId);
  if (!attachment || attachment.serverItemid !== null) {
    ctx.outbox.remove(row.id);
    return { type: 'done' };
  }
  if (row.unknownOutcome) {
    const items = currentMediaWire.parse(await ctx.transport.request('GET', '/user/media/current', { query: { limit: 200, order: 'DESC' } }));
    const found = items
      .map((item) => itemWire.safeParse(item))
      .find((parsed) => parsed.success && (parsed.data.name ?? parsed.data.filename) === attachment.uploadName);
    const id = found?.success ? (found.data.id ?? found.data.itemid) : null;
    if (id != null) {
      ctx.db.transaction(() => {
        ctx.sessions.attachmentUploaded(attachment.id, id);
        ctx.outbox.remove(row.id);
      })();
      return { type: 'done' };
    }
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(ctx.attachmentsDir, attachment.file));
  } catch {
    return { type: 'failed', message: `The attached file ${attachment.uploadName} is missing from this computer.` };
  }
  const answer = await uploadMedia(ctx.transport, attachment.uploadName, new Uint8Array(bytes));
  ctx.db.transaction(() => {
    ctx.sessions.attachmentUploaded(attachment.id, answer.id);
    ctx.outbox.remove(row.id);
  })();
  return { type: 'done' };
};
