import type { z } from 'zod';
import type { OutboxRow } from '../../db/repos/outbox-repo.ts';
import type { ReplayOutcome, WorklogContext } from './context.ts';
import { CHECKS_AFTER, doublesCheckAction } from './doubles-check.ts';
import type { doublesPayload } from './payloads.ts';

/**
 * A start or an upload that got no answer may still be landing: a slow site applies what it received after
 * the client gave up. Before sending one again it is looked for on the site at these multiples of the
 * request's time limit after it was sent (20 s: at 20 s, 60 s and 140 s); only then is it sent again.
 */
const LOOKS_AFTER = [1, 3, 7] as const;
type Doubles = z.infer<typeof doublesPayload>;

/** The next time to look for an unanswered send before sending it again, or null: the window is over. */
export function nextLook(ctx: WorklogContext, row: OutboxRow): number | null {
  const limit = ctx.transport.timeoutMs;
  const sent = row.unknownSince;
  if (sent === null) return null;
  const now = ctx.nowMs();
  const next = LOOKS_AFTER.map((n) => sent + n * limit).find((at) => at > now);
  return next ?? null;
}

/**
 * Look again later: it is not on the site yet, but a site that got it late may still be taking it. The site
 * did answer the look: "has not answered whether it took the start" stood in the Sync centre over a site that
 * had just said it had not (a walk on flapping Wi-Fi, where a hung request is the common drop).
 */
export function lookLater(at: number, what: string): ReplayOutcome {
  const message =
    `${what[0]!.toUpperCase()}${what.slice(1)} is not on the site yet, but no answer came when it was sent: ` +
    'a slow site may still be taking it. It is looked for once more and sent again only if it is still not ' +
    'there, so that it is not made twice.';
  return { type: 'wait', atMs: at, message };
}

/**
 * Queues the checks for a second copy of a start or an upload whose outcome was unknown (call it in the
 * transaction that settles it). `now`: a second copy is already known, remove it at once. The checks
 * have a chain of their own, so the session's next actions never wait for them, and go with the
 * sign-in of the technician whose work it is.
 */
export function checkForDoubles(ctx: WorklogContext, check: Doubles, now = false): void {
  const first = now ? check.since : check.since + CHECKS_AFTER[0] * ctx.transport.timeoutMs;
  const key = check.of === 'start' ? check.sessionId : check.attachmentId;
  const chain = { type: 'doubles', id: key };
  const id = ctx.enqueue(doublesCheckAction, check, { chain, actedAt: ctx.now(), technician: ctx.technician });
  ctx.outbox.retryLater(id, first, 'Checking the site for a second copy.', false);
}
