import type { Context } from 'hono';
import { z } from 'zod';
import { canViewGuide, guideForRequest } from '../guides/access.ts';
import { maxFormRevisionid } from '../step-forms/repo.ts';
import { getGuideRow, getGuideRows } from '../guides/repo.ts';
import { checkRevision } from '../http/revision-param.ts';
import { allowed, apply, STEP_DATA_STATES, TRANSITIONS } from '../worklog/machine.ts';
import {
  entryJson,
  getEntry,
  insertEntry,
  listEntries,
  saveClock,
  type EntryFilter,
  type EntryRow,
} from '../worklog/repo.ts';
import { checkTimestamp, saveStepData, stepDataBody } from '../worklog/step-data.ts';
import type { ServerContext } from '../context.ts';
import { WORK_STATUSES, type WorkStatus } from '../db/schema-content.ts';
import { isAdmin, requireUser } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, HttpError, invalid, notFound } from '../http/errors.ts';
import { readBody, readJsonObject, validate } from '../http/json.ts';
import { pagedResult, parseInteger, parsePaging, type Order } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import type { UserRow } from '../users/repo.ts';
import { isStepOfSession } from '../guides/prerequisites.ts';
import { recordMutation } from '../testing/audit.ts';

const startBody = z.object({
  guideid: z.number().int().positive(),
  workorderid: z.union([z.string().trim().min(1).max(100), z.number().int().nonnegative()]).transform(String),
  stepid: z.number().int().positive().optional(),
  timestamp: z.number().nonnegative().optional(),
});

function entryOf(ctx: ServerContext, c: Context<AppEnv>): EntryRow {
  const entryid = routeId(c.req.param('entryid'));
  const entry = entryid === null ? undefined : getEntry(ctx.db, entryid);
  if (!entry) throw notFound('No such work-log entry');
  return entry;
}

const owns = (user: UserRow, entry: EntryRow) => entry.userid === user.userid || isAdmin(user);

/** DESIGN.md §7: a transition the state does not allow is a 422 with the current entry under `entry`. */
function invalidTransition(ctx: ServerContext, entry: EntryRow, what: string): HttpError {
  const message = `Cannot ${what} an entry that is ${entry.status}`;
  const errors = [{ field: 'status', code: 'invalid_transition', message }];
  return new HttpError(422, message, errors, { message, errors, entry: entryJson(ctx.db, entry) });
}

/** Suspended entries of everyone on the guides `user` may view, paged after that check (they are few). */
function suspendedVisibleTo(
  ctx: ServerContext,
  user: UserRow,
  filter: EntryFilter,
  paging: { offset: number; limit: number; order: Order },
): { rows: EntryRow[]; total: number } {
  const { rows } = listEntries(ctx.db, filter, { offset: 0, limit: Number.MAX_SAFE_INTEGER, order: paging.order });
  const guides = new Map(getGuideRows(ctx.db, [...new Set(rows.map((r) => r.guideid))]).map((g) => [g.guideid, g]));
  const visible = rows.filter((row) => {
    const guide = guides.get(row.guideid);
    return guide !== undefined && canViewGuide(user, guide);
  });
  return { rows: visible.slice(paging.offset, paging.offset + paging.limit), total: visible.length };
}

/** The whole work log of reference 4.10 with the state machine of 3.1 (decisions in server/README.md). */
export const workLogRoutes: RouteModule = (api, ctx) => {
  api.get('/work_log', (c) => {
    const user = requireUser(c);
    const paging = parsePaging((name) => c.req.query(name));
    const status = c.req.query('status');
    if (status !== undefined && !WORK_STATUSES.includes(status as WorkStatus)) {
      throw invalid('status', 'invalid_value', `status must be one of ${WORK_STATUSES.join(', ')}`);
    }
    const userid = parseInteger(c.req.query('userid'), 'userid', { min: 1 });
    if (!isAdmin(user) && userid !== undefined && userid !== user.userid)
      throw forbidden("Only admins may read other people's work logs");
    const guideid = parseInteger(c.req.query('guideid'), 'guideid', { min: 1 });
    const workorderid = c.req.query('workorderid');
    // Anyone who may assume a suspended entry may list it (as `GET /work_log/{guideid}/suspended` does).
    const everyones = isAdmin(user) || (status === 'suspended' && userid === undefined);
    const filter = {
      ...(guideid !== undefined ? { guideid } : {}),
      ...(workorderid !== undefined ? { workorderid } : {}),
      ...(status !== undefined ? { status: status as WorkStatus } : {}),
      ...(userid !== undefined ? { userid } : everyones ? {} : { userid: user.userid }),
    };
    const { rows, total } =
      isAdmin(user) || !everyones ? listEntries(ctx.db, filter, paging) : suspendedVisibleTo(ctx, user, filter, paging);
    const { search: _, ...page } = pagedResult(
      rows.map((row) => entryJson(ctx.db, row)),
      total,
      paging,
      '',
    );
    return c.json(page);
  });

  api.get('/work_log/:entryid', (c) => {
    const user = requireUser(c);
    const entry = entryOf(ctx, c);
    const guide = getGuideRow(ctx.db, entry.guideid);
    const mayLook =
      owns(user, entry) || (entry.status === 'suspended' && guide !== undefined && canViewGuide(user, guide));
    if (!mayLook) throw forbidden('This work-log entry belongs to someone else');
    return c.json(entryJson(ctx.db, entry));
  });

  api.get('/work_log/:guideid/suspended', (c) => {
    requireUser(c);
    const guide = guideForRequest(ctx.db, c, c.req.param('guideid'));
    const { rows } = listEntries(
      ctx.db,
      { guideid: guide.guideid, status: 'suspended' },
      { offset: 0, limit: 10_000, order: 'ASC' },
    );
    return c.json({ results: rows.map((row) => entryJson(ctx.db, row)) });
  });

  api.post('/work_log', async (c) => {
    const user = requireUser(c);
    const body = await readBody(c, startBody);
    const guide = getGuideRow(ctx.db, body.guideid);
    if (!guide) throw invalid('guideid', 'invalid_value', 'No such guide');
    if (!canViewGuide(user, guide)) throw forbidden('You cannot view this guide');
    if (body.stepid !== undefined && !isStepOfSession(ctx.db, guide.guideid, body.stepid)) {
      throw invalid('stepid', 'invalid_value', 'stepid is not a step of this guide');
    }
    const entryid = ctx.db.transaction(() => {
      const id = insertEntry(ctx.db, {
        guideid: guide.guideid,
        userid: user.userid,
        workorderid: body.workorderid,
        starttime: checkTimestamp(body.timestamp) ?? ctx.clock.now(),
        active_stepid: body.stepid ?? null,
        max_form_revisionid: maxFormRevisionid(ctx.db, guide.guideid),
        guide_revisionid: guide.revisionid,
      });
      recordMutation(ctx, c, 'work_log', id);
      return id;
    })();
    return c.json(entryJson(ctx.db, getEntry(ctx.db, entryid)!), 201);
  });

  for (const transition of TRANSITIONS) {
    api.post(`/work_log/:entryid/${transition}`, async (c) => {
      const user = requireUser(c);
      const entry = entryOf(ctx, c);
      if (transition === 'assume') {
        const guide = getGuideRow(ctx.db, entry.guideid);
        if (!guide || !canViewGuide(user, guide)) throw forbidden('You cannot view the guide of this entry');
      } else if (!owns(user, entry)) {
        throw forbidden('This work-log entry belongs to someone else');
      }
      const raw = await readJsonObject(c);
      checkRevision(c.req.query('revisionid'), entry.revisionid, () => entryJson(ctx.db, entry));
      if (!allowed(transition, entry.status)) throw invalidTransition(ctx, entry, transition);
      const at = checkTimestamp(raw.timestamp) ?? ctx.clock.now();
      ctx.db.transaction(() => {
        saveClock(ctx.db, entry.entryid, apply(entry, transition, at, user.userid));
        // A guide deleted since the entry began has no completions to count.
        if (transition === 'finish' && getGuideRow(ctx.db, entry.guideid)) {
          ctx.db
            .prepare('INSERT OR IGNORE INTO completions (userid, guideid, created) VALUES (?, ?, ?)')
            .run(entry.userid, entry.guideid, at);
        }
        recordMutation(ctx, c, 'work_log', entry.entryid);
      })();
      return c.json(entryJson(ctx.db, getEntry(ctx.db, entry.entryid)!));
    });
  }

  api.put('/work_log/:entryid/stepData', async (c) => {
    const user = requireUser(c);
    const entry = entryOf(ctx, c);
    if (!owns(user, entry)) throw forbidden('This work-log entry belongs to someone else');
    const raw = await readJsonObject(c);
    checkRevision(c.req.query('revisionid'), entry.revisionid, () => entryJson(ctx.db, entry));
    if (!STEP_DATA_STATES.includes(entry.status)) throw invalidTransition(ctx, entry, 'save step data of');
    const body = validate(raw, stepDataBody);
    const at = checkTimestamp(body.timestamp) ?? ctx.clock.now();
    ctx.db.transaction(() => {
      const stepid = saveStepData(ctx.db, entry, body, entry.userid);
      const timingid = ctx.db
        .prepare('INSERT INTO work_log_timings (entryid, stepid, time, lasttimingid) VALUES (?, ?, ?, ?)')
        .run(entry.entryid, stepid, at, body.lasttimingid ?? null).lastInsertRowid;
      // While paused the step is remembered for resume rather than made active.
      const column = entry.status === 'paused' ? 'paused_stepid' : 'active_stepid';
      ctx.db
        .prepare(
          `UPDATE work_log SET timingid = ?, ${column} = COALESCE(?, ` +
            `${column}), revisionid = revisionid + 1 WHERE entryid = ?`,
        )
        .run(timingid, stepid, entry.entryid);
      recordMutation(ctx, c, 'work_log', entry.entryid);
    })();
    return c.json(entryJson(ctx.db, getEntry(ctx.db, entry.entryid)!));
  });

  api.delete('/work_log/:entryid', (c) => {
    const user = requireUser(c);
    const entry = entryOf(ctx, c);
    if (!owns(user, entry)) throw forbidden('This work-log entry belongs to someone else');
    checkRevision(c.req.query('revisionid'), entry.revisionid, () => entryJson(ctx.db, entry), false);
    ctx.db.transaction(() => {
      ctx.db.prepare('DELETE FROM work_log WHERE entryid = ?').run(entry.entryid);
      recordMutation(ctx, c, 'work_log', entry.entryid);
    })();
    return c.body(null, 204);
  });
};
