import type { Context } from 'hono';
import type { ServerContext } from '../context.ts';
import type { AppEnv } from '../http/env.ts';

export interface AuditEntry {
  auditid: number;
  method: string;
  path: string;
  entity: string;
  entity_id: string;
  userid: number | null;
  time: number;
}

/**
 * Records one applied mutation when test hooks are on (a no-op otherwise). Call it inside the same
 * transaction as the change, so the log holds exactly the effects that were applied. `userid` defaults
 * to the signed-in caller.
 */
export function recordMutation(
  ctx: ServerContext,
  c: Context<AppEnv>,
  entity: string,
  entityId: string | number,
  userid: number | null = c.get('user')?.userid ?? null,
): void {
  if (!ctx.options.testHooks) return;
  ctx.db
    .prepare('INSERT INTO audit_log (method, path, entity, entity_id, userid, time) VALUES (?, ?, ?, ?, ?, ?)')
    .run(c.req.method, c.req.path, entity, String(entityId), userid, ctx.clock.now());
}

export function auditEntries(ctx: ServerContext, filter: { entity?: string; afterId?: number }): AuditEntry[] {
  return ctx.db
    .prepare(
      `SELECT * FROM audit_log WHERE (@entity IS NULL OR entity = @entity) AND auditid > @afterId ORDER BY auditid`,
    )
    .all({ entity: filter.entity ?? null, afterId: filter.afterId ?? 0 }) as AuditEntry[];
}
