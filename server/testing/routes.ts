import { z } from 'zod';
import type { ServerContext } from '../context.ts';
import type { ApiApp } from '../http/env.ts';
import { readBody } from '../http/json.ts';
import { parseInteger } from '../http/paging.ts';
import { auditEntries } from './audit.ts';

const clockBody = z.object({ now: z.number().int().nullable() });

/** `/__test/*`: registered only with test hooks on, so these paths are plain 404s on any other site. */
export function registerTestHooks(site: ApiApp, ctx: ServerContext): void {
  site.get('/__test/audit', (c) =>
    c.json(
      auditEntries(ctx, {
        entity: c.req.query('entity'),
        afterId: parseInteger(c.req.query('after'), 'after', { min: 0 }),
      }),
    ),
  );
  site.delete('/__test/audit', (c) => {
    ctx.db.prepare('DELETE FROM audit_log').run();
    return c.body(null, 204);
  });
  site.get('/__test/clock', (c) => c.json({ now: ctx.clock.now() }));
  site.get('/__test/counters', (c) => c.json(ctx.counters));
  site.post('/__test/clock', async (c) => {
    const { now } = await readBody(c, clockBody);
    ctx.clock.set(now);
    return c.json({ now: ctx.clock.now() });
  });
}
