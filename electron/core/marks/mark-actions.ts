import { z } from 'zod';
import { sendCompleted, sendFavorite } from '../api/marks-api.ts';
import { classify } from '../api/failure.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { ChainRef } from '../db/chains.ts';
import type { GuidesRepo } from '../db/repos/guides-repo.ts';
import { defineAction } from '../outbox/action-kind.ts';

/** What the marks' kinds replay with, beside the outbox's context (marks-outbox.ts registers them). */
export interface MarksReplayDeps {
  guides: GuidesRepo;
}

export const markPayload = z.object({ guideid: z.number().int().positive(), on: z.boolean() });
export type MarkPayload = z.infer<typeof markPayload>;

/** The chain types of the marks: one chain per technician, mark and guide (a later toggle amends its tail). */
export const MARK_CHAINS = { favorite: 'favorite', completed: 'completion' } as const;
export type SentMark = keyof typeof MARK_CHAINS;

export const markChain = (mark: SentMark, technician: number, guideid: number): ChainRef => ({
  type: MARK_CHAINS[mark],
  id: `${technician}.${guideid}`,
});

type Send = (transport: ApiTransport, guideid: number, on: boolean) => Promise<void>;

/** iFixit's answer when a user marks guides done faster than its reputation limit allows. */
const RATE_LIMITED = 420;
const RATE_LIMIT_WAIT_MS = 60_000;

/**
 * A mark's kind: PUT or DELETE, both idempotent on the site, so an answer lost on the way is simply asked
 * again. Taking a mark off a guide the site no longer has (404) leaves nothing to take off: done. A rate
 * limit (iFixit's 420) is waited out, not taken for a refusal.
 */
function markAction(name: string, send: Send, words: { on: string; off: string }) {
  const kind = defineAction<MarkPayload, MarksReplayDeps>(
    name,
    markPayload,
    async (ctx, row, picked) => {
      // A later toggle queued behind this one (made while this one was on its way) carries the latest
      // state: this one is not sent, so the site hears only what the technician chose last.
      if (ctx.outbox.tail(row.chain)?.id !== row.id) {
        ctx.transaction(() => ctx.outbox.remove(row.id));
        return { type: 'done' };
      }
      // The payload as stored now that the action is on its way: a toggle made while it was being picked
      // up amended it, and the latest toggle is what goes.
      const stored = ctx.outbox.get(row.id);
      const read = stored ? kind.parse(stored) : null;
      const payload = read?.ok ? read.payload : picked;
      try {
        await send(ctx.transport, payload.guideid, payload.on);
      } catch (error) {
        const failure = classify(error);
        if (failure.kind !== 'local' && failure.status === RATE_LIMITED) {
          const message = 'The site limits how fast guides are marked; this goes again in a minute.';
          return { type: 'wait', atMs: ctx.nowMs() + RATE_LIMIT_WAIT_MS, message };
        }
        const gone = failure.kind === 'gone' && !payload.on;
        if (!gone) throw error;
      }
      ctx.transaction(() => ctx.outbox.remove(row.id));
      return { type: 'done' };
    },
    {
      describe: (deps, _row, payload) => {
        const title = deps.guides.getListItem(payload.guideid)?.title ?? `guide ${payload.guideid}`;
        return `${payload.on ? words.on : words.off} "${title}"`;
      },
    },
  );
  return kind;
}

export const favoriteAction = markAction('favorite', sendFavorite, {
  on: 'Add to favourites',
  off: 'Take out of favourites',
});

export const completedAction = markAction('completed', sendCompleted, {
  on: 'Mark as done',
  off: 'Take back "done" of',
});
