import type { Context } from 'hono';
import type { ServerContext } from '../context.ts';
import { canEditGuide, guideForRequest, nextModified } from '../guides/access.ts';
import { fullGuideJson, guideSummaryJson } from '../guides/json.ts';
import { readGuide } from '../guides/reading.ts';
import { IFIXIT_GUIDEIDS_CAP } from '../http/dialects.ts';
import { applyGuidePatch, guidePatch } from '../guides/patch.ts';
import { fieldsOf, getGuideRevisionRow, listGuides, type GuideFilter, type GuideRow } from '../guides/repo.ts';
import { checkRevision } from '../http/revision-param.ts';
import { reviseGuide, type GuideType } from '../guides/write.ts';
import { currentUser, isAdmin } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, invalid, notFound, unauthorized } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { MAX_LIMIT, parseInteger, parsePaging } from '../http/paging.ts';
import { parseBoolean } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import { recordMutation } from '../testing/audit.ts';
import { recordView } from '../view-history/repo.ts';

export const GUIDE_TYPES: readonly GuideType[] = [
  'replacement',
  'installation',
  'repair',
  'disassembly',
  'teardown',
  'technique',
  'maintenance',
  'how-to',
];

/** Comma-separated positive ids; anything else is a 422 naming the parameter. */
export function parseIdList(value: string | undefined, name: string): number[] | undefined {
  if (value === undefined) return undefined;
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (!parts.every((part) => /^\d{1,15}$/.test(part)))
    throw invalid(name, 'invalid_value', `${name} must be a comma-separated list of ids`);
  return parts.map(Number);
}

/** A unix time that may carry a fraction (modified_date does). */
function parseTimestamp(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value.trim())) throw invalid(name, 'invalid_value', `${name} must be a unix timestamp`);
  return Number(value);
}

const query = (c: Context) => (name: string) => c.req.query(name);

export function fullGuideResponse(ctx: ServerContext, c: Context<AppEnv>, row: GuideRow) {
  const user = currentUser(c);
  const json = fullGuideJson(ctx.db, siteOrigin(c), row, { user, canEdit: canEditGuide(user, row) });
  // A site without tags has none to tell with its guides either; iFixit's guide "does not include a tags
  // field; current tags are available from getGuideTags".
  if (!ctx.options.without.includes('tags') && ctx.options.dialect !== 'ifixit') return json;
  const { tags: _none, ...withoutTags } = json;
  return withoutTags;
}

/** Reference 4.6 and the guide endpoints of 4.10 (detail, PATCH, DELETE). */
export const guidesRoutes: RouteModule = (api, ctx) => {
  api.get('/guides', (c) => {
    const guideids = parseIdList(c.req.query('guideids'), 'guideids');
    const includePrivate = parseBoolean(c.req.query('includePrivate'), 'includePrivate') ?? false;
    if (includePrivate) {
      const user = currentUser(c);
      if (!user) throw unauthorized();
      if (!isAdmin(user)) throw forbidden('includePrivate needs Admin authentication');
    }
    const origin = siteOrigin(c);
    if (guideids && ctx.options.dialect === 'ifixit') {
      // iFixit: "only the first 50 ids are used", and filter, modifiedSince, order, offset and limit are ignored.
      const filter: GuideFilter = { publicOnly: !includePrivate, guideids: guideids.slice(0, IFIXIT_GUIDEIDS_CAP) };
      const rows = listGuides(ctx.db, filter, { offset: 0, limit: IFIXIT_GUIDEIDS_CAP, order: 'ASC' });
      return c.json(rows.map((row) => guideSummaryJson(origin, row)));
    }
    if (guideids && guideids.length > MAX_LIMIT)
      throw invalid('guideids', 'invalid_value', `At most ${MAX_LIMIT} guideids at once`);
    // With guideids the default page holds every id asked for, so none looks deleted for want of a limit.
    const paging = parsePaging(query(c), guideids ? { limit: Math.max(1, guideids.length) } : {});
    const type = c.req.query('filter');
    if (type !== undefined && !GUIDE_TYPES.includes(type as GuideType)) {
      throw invalid('filter', 'invalid_value', `filter must be one of ${GUIDE_TYPES.join(', ')}`);
    }
    const filter: GuideFilter = {
      publicOnly: !includePrivate,
      ...(guideids ? { guideids } : {}),
      ...(type ? { type: type as GuideType } : {}),
    };
    const since = parseTimestamp(c.req.query('modifiedSince'), 'modifiedSince');
    if (since !== undefined) filter.modifiedSince = since;
    return c.json(listGuides(ctx.db, filter, paging).map((row) => guideSummaryJson(origin, row)));
  });

  api.get('/guides/featured', (c) => {
    const paging = parsePaging(query(c));
    const origin = siteOrigin(c);
    return c.json(listGuides(ctx.db, { starred: true }, paging).map((row) => guideSummaryJson(origin, row)));
  });

  api.get('/guides/:guideid', (c) => {
    const current = guideForRequest(ctx.db, c, c.req.param('guideid'));
    // `?revisionid=` reads an earlier revision (what a work-log entry's guide_revisionid pins).
    const wanted = parseInteger(c.req.query('revisionid'), 'revisionid', { min: 1 });
    const row = wanted === undefined ? current : getGuideRevisionRow(ctx.db, current.guideid, wanted);
    if (!row) throw notFound('No such revision of this guide');
    const user = currentUser(c);
    if (user) recordView(ctx, user.userid, 'GUIDE', row.guideid);
    return c.json(readGuide(ctx, c, row, fullGuideResponse(ctx, c, row)));
  });

  api.patch('/guides/:guideid', async (c) => {
    const row = guideForRequest(ctx.db, c, c.req.param('guideid'), 'edit');
    checkRevision(c.req.query('revisionid'), row.revisionid, () => fullGuideResponse(ctx, c, row));
    const patch = await readBody(c, guidePatch);
    const user = currentUser(c)!;
    const updated = ctx.db.transaction(() => {
      const fields = applyGuidePatch(ctx.db, row, fieldsOf(row), patch);
      if (!fields) return row;
      reviseGuide(ctx.db, row.guideid, fields, nextModified(row.modified_date, ctx.clock.now()), user.userid);
      if (fields.public) {
        ctx.db
          .prepare('UPDATE guides SET published_date = COALESCE(published_date, ?) WHERE guideid = ?')
          .run(ctx.clock.now(), row.guideid);
      }
      recordMutation(ctx, c, 'guide', row.guideid);
      return guideForRequest(ctx.db, c, String(row.guideid));
    })();
    return c.json(fullGuideResponse(ctx, c, updated));
  });

  api.delete('/guides/:guideid', (c) => {
    const row = guideForRequest(ctx.db, c, c.req.param('guideid'), 'edit');
    checkRevision(c.req.query('revisionid'), row.revisionid, () => fullGuideResponse(ctx, c, row), false);
    ctx.db.transaction(() => {
      ctx.db.prepare('DELETE FROM guides WHERE guideid = ?').run(row.guideid);
      recordMutation(ctx, c, 'guide', row.guideid);
    })();
    return c.body(null, 204);
  });
};
