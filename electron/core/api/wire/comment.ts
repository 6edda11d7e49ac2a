import { z } from 'zod';
import { orAbsent, wireInt, wireNumber, wireText } from './lenient.ts';

/** A comment (iFixit's `Comment`; reference 4.10): what the client reads of it. */
export const commentWire = z
  .object({
    commentid: wireInt,
    parentid: orAbsent(wireInt),
    context: orAbsent(z.string()),
    contextid: orAbsent(wireInt),
    author: orAbsent(z.object({ userid: orAbsent(wireInt), username: orAbsent(wireText) }).loose()),
    text_raw: orAbsent(wireText),
    text_rendered: orAbsent(wireText),
    date: orAbsent(wireNumber),
    status: orAbsent(z.string()),
  })
  .loose();
export type CommentWire = z.infer<typeof commentWire>;

/** A comment's nested replies (iFixit: "present only on top-level comments"), each read on its own. */
const repliesWire = z.object({ replies: z.array(z.unknown()).catch([]) }).loose();

/**
 * The comments a guide or step carries, each top-level one followed by its replies: iFixit nests those in it
 * (`replies`), the reference lists them beside it. A reply without its `parentid` is the reply of the comment
 * it sits in. One that does not read is left out, and a list that is not one reads as none, so comments
 * never cost a guide.
 */
export const commentListWire = z
  .array(z.unknown())
  .transform((list) =>
    list.flatMap((item) => {
      const comment = commentWire.safeParse(item);
      if (!comment.success) return [];
      const nested = repliesWire.safeParse(item);
      const replies = (nested.success ? nested.data.replies : []).flatMap((reply) => {
        const read = commentWire.safeParse(reply);
        return read.success ? [{ ...read.data, parentid: read.data.parentid ?? comment.data.commentid }] : [];
      });
      return [comment.data, ...replies];
    }),
  )
  .optional()
  .catch(undefined);

/** What a guide's answer carries of its comments and its steps' (looking for a send that got no answer). */
export const guideCommentsWire = z
  .object({
    comments: commentListWire,
    steps: z.array(z.object({ stepid: wireInt, comments: commentListWire }).loose()).catch([]),
  })
  .loose();
