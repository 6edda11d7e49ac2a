import type { OutboxAction } from '../../contract.ts';
import type { OutboxRow } from '../db/repos/outbox-repo.ts';
import type { ActionRegistry } from './registry.ts';

/** Every waiting action of one technician (their rows, oldest first), each in its kind's words. */
export function outboxActions(rows: readonly OutboxRow[], kinds: ActionRegistry): OutboxAction[] {
  const memo = new Map<string, unknown>();
  return rows.map((row) => {
    const kind = kinds.kind(row.kind);
    const read = kind?.read(row);
    const summary = !read ? row.kind : read.ok ? read.action.describe(memo) : `${row.kind} (unreadable)`;
    return {
      id: row.id,
      sessionId: row.chain,
      // The contract names the kinds the renderer knows; a stored row holds what was registered.
      kind: row.kind as OutboxAction['kind'],
      summary,
      actedAt: row.actedAt,
      state: row.state,
      stuck: row.state === 'failed' && row.nextAttemptAt < 0,
      attempts: row.attempts,
      nextAttemptAt: row.state === 'pending' && row.nextAttemptAt > 0 ? Math.ceil(row.nextAttemptAt / 1000) : null,
      error: row.lastError,
      mayBeOnSite: row.state === 'pending' && row.unknownOutcome,
      // Only a refused action is changed by the technician (a save: at its step).
      step: row.state === 'failed' && read?.ok ? read.action.changeAt(memo) : null,
    };
  });
}
