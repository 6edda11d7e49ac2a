import type { ChainRef } from '../db/chains.ts';
import type { Store } from '../db/store.ts';
import type { OutboxFeature } from '../outbox/registry.ts';
import {
  commentDeleteAction,
  commentEditAction,
  commentPostAction,
  type CommentReplayDeps,
} from './comment-actions.ts';

/** A comment's chain in the outbox: its send, then any edit or delete, in that order. */
export const commentChain = (commentId: string): ChainRef<'comment'> => ({ type: 'comment', id: commentId });

/** The comments' kinds of action, registered with the outbox (services.ts). */
export function commentsOutbox(deps: { store: Store }): OutboxFeature<CommentReplayDeps> {
  const { comments, technicians } = deps.store;
  return {
    chains: ['comment'],
    actions: [commentPostAction, commentEditAction, commentDeleteAction],
    deps: { comments, useridOf: (technician) => technicians.get(technician)?.userid ?? null },
  };
}
