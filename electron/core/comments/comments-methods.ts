import { z } from 'zod';
import type { CommentsApi } from '../../contract.ts';
import { id } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import type { CommentsService } from './comments-service.ts';

// Lengths are checked by the service (shared/comments.ts), in the words the technician reads.
const text = z.string().max(20_000);
const localId = z.string().min(1).max(100);

/** The App API of comments: a guide's own comments of this technician, and writing, changing, deleting one. */
export const commentsMethods = defineMethods<keyof CommentsApi, CommentsService>({
  guideComments: { input: z.tuple([id]), technician: true, run: (comments, guideid) => comments.ofGuide(guideid) },
  writeComment: {
    input: z.tuple([
      z.object({
        guideid: id,
        context: z.enum(['guide', 'step']),
        contextid: id,
        parentid: id.optional(),
        text,
      }),
    ]),
    work: true,
    technician: true,
    run: (comments, input) => comments.write(input),
  },
  editComment: {
    input: z.tuple([z.object({ id: localId, text })]),
    work: true,
    technician: true,
    run: (comments, input) => comments.edit(input.id, input.text),
  },
  deleteComment: {
    input: z.tuple([localId]),
    work: true,
    technician: true,
    run: (comments, commentId) => comments.delete(commentId),
  },
});
