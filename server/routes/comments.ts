import type { Context } from 'hono';
import { z } from 'zod';
import { canViewGuide, guideForRequest } from '../guides/access.ts';
import {
  COMMENT_CONTEXTS,
  commentJson,
  getComment,
  insertComment,
  type CommentContext,
  type CommentRow,
} from '../comments/repo.ts';
import { getGuideRow } from '../guides/repo.ts';
import { renderInline } from '../guides/markup.ts';
import type { ServerContext } from '../context.ts';
import { currentUser, requireUser } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, invalid, notFound } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { parseInteger, parsePaging } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import type { UserRow } from '../users/repo.ts';
import { recordMutation } from '../testing/audit.ts';

const EDIT_WINDOW = 5 * 60;
const postBody = z.object({
  text: z.string().trim().min(1).max(5000),
  parentid: z.number().int().positive().nullable().optional(),
});
const patchBody = z.object({ text: z.string().trim().min(1).max(5000) });

/**
 * iFixit's comment text: 12 to 4096 characters, counted on the raw text including markup (its description's
 * minLength and maxLength: characters, not UTF-16 units), refused with 422 as it refuses a body it does not take.
 */
const IFIXIT_TEXT = { min: 12, max: 4096 };
function checkDialectText(c: Context<AppEnv>, text: string): void {
  if (c.get('dialect') !== 'ifixit') return;
  const length = [...text].length;
  if (length < IFIXIT_TEXT.min || length > IFIXIT_TEXT.max)
    throw invalid(
      'text',
      'invalid_value',
      `text must be between ${IFIXIT_TEXT.min} and ${IFIXIT_TEXT.max} characters long (it is ${length})`,
    );
}

/** The guide a guide or step comment belongs to (undefined for other contexts). */
function guideOfContext(ctx: ServerContext, context: CommentContext, contextid: number): number | undefined {
  if (context === 'guide') return contextid;
  if (context === 'step')
    return (
      ctx.db.prepare('SELECT guideid FROM steps WHERE stepid = ?').get(contextid) as { guideid: number } | undefined
    )?.guideid;
  return undefined;
}

/** Comments on private guides are as private as the guide. */
function visible(ctx: ServerContext, user: UserRow | null, row: CommentRow): boolean {
  const guideid = guideOfContext(ctx, row.context, row.contextid);
  if (guideid === undefined) return row.context !== 'guide' && row.context !== 'step';
  const guide = getGuideRow(ctx.db, guideid);
  return guide !== undefined && canViewGuide(user, guide);
}

function commentOf(ctx: ServerContext, c: Context<AppEnv>): CommentRow {
  const commentid = routeId(c.req.param('commentid'));
  const row = commentid === null ? undefined : getComment(ctx.db, commentid);
  if (!row || !visible(ctx, currentUser(c), row)) throw notFound('No such comment');
  return row;
}

/** What a comment may be posted on here: guides and steps the caller can see, and category pages. */
function checkTarget(ctx: ServerContext, c: Context<AppEnv>, context: CommentContext, contextid: number): void {
  if (context === 'guide') guideForRequest(ctx.db, c, String(contextid));
  else if (context === 'step') {
    const guideid = guideOfContext(ctx, 'step', contextid);
    if (guideid === undefined) throw notFound('No such step');
    guideForRequest(ctx.db, c, String(guideid));
  } else if (context === 'wiki') {
    if (!ctx.db.prepare('SELECT 1 FROM categories WHERE wikiid = ?').get(contextid)) throw notFound('No such wiki');
  } else throw notFound(`This site has no ${context} pages`);
}

/** Comments of reference 4.10 (shape decided in server/README.md). */
export const commentsRoutes: RouteModule = (api, ctx) => {
  api.get('/comments', (c) => {
    const paging = parsePaging((name) => c.req.query(name));
    const context = c.req.query('context');
    if (context !== undefined && !(COMMENT_CONTEXTS as readonly string[]).includes(context))
      throw invalid('context', 'invalid_value', `context must be one of ${COMMENT_CONTEXTS.join(', ')}`);
    const contextid = parseInteger(c.req.query('contextid'), 'contextid', { min: 1 });
    const user = currentUser(c);
    const rows = (
      ctx.db
        .prepare(
          `SELECT * FROM comments WHERE (@context IS NULL OR context = @context) ` +
            `AND (@contextid IS NULL OR contextid = @contextid) ORDER BY commentid ${paging.order}`,
        )
        .all({ context: context ?? null, contextid: contextid ?? null }) as CommentRow[]
    ).filter((row) => visible(ctx, user, row));
    const origin = siteOrigin(c);
    return c.json(
      rows.slice(paging.offset, paging.offset + paging.limit).map((row) => commentJson(ctx.db, origin, row)),
    );
  });

  api.get('/comments/:commentid', (c) => c.json(commentJson(ctx.db, siteOrigin(c), commentOf(ctx, c))));

  api.post('/comments/:context/:contextid', async (c) => {
    const user = requireUser(c);
    const context = c.req.param('context');
    const contextid = routeId(c.req.param('contextid'));
    if (!(COMMENT_CONTEXTS as readonly string[]).includes(context) || contextid === null)
      throw notFound('No such comment target');
    checkTarget(ctx, c, context as CommentContext, contextid);
    const body = await readBody(c, postBody);
    checkDialectText(c, body.text);
    const parentid = body.parentid ?? null;
    if (parentid !== null) {
      const parent = getComment(ctx.db, parentid);
      if (!parent || parent.context !== context || parent.contextid !== contextid)
        throw invalid('parentid', 'invalid_value', 'parentid is not a comment on the same page');
    }
    const row = ctx.db.transaction(() => {
      const saved = insertComment(ctx.db, {
        context: context as CommentContext,
        contextid,
        parentid,
        userid: user.userid,
        text: body.text,
        now: ctx.clock.now(),
      });
      recordMutation(ctx, c, 'comment', saved.commentid);
      return saved;
    })();
    return c.json(commentJson(ctx.db, siteOrigin(c), row), 201);
  });

  api.patch('/comments/:commentid', async (c) => {
    const user = requireUser(c);
    const row = commentOf(ctx, c);
    if (row.userid !== user.userid) throw forbidden('Only its author may edit a comment');
    if (ctx.clock.now() - row.date > EDIT_WINDOW)
      throw forbidden('A comment can be edited for 5 minutes after it was posted');
    const { text } = await readBody(c, patchBody);
    checkDialectText(c, text);
    ctx.db.transaction(() => {
      ctx.db
        .prepare('UPDATE comments SET text_raw = ?, text_rendered = ?, modified_date = ? WHERE commentid = ?')
        .run(text, renderInline(text), ctx.clock.now(), row.commentid);
      recordMutation(ctx, c, 'comment', row.commentid);
    })();
    return c.json(commentJson(ctx.db, siteOrigin(c), getComment(ctx.db, row.commentid)!));
  });

  api.delete('/comments/:commentid', (c) => {
    const user = requireUser(c);
    const row = commentOf(ctx, c);
    if (row.userid !== user.userid) throw forbidden('Only its author may delete a comment');
    ctx.db.transaction(() => {
      ctx.db.prepare('DELETE FROM comments WHERE commentid = ?').run(row.commentid);
      recordMutation(ctx, c, 'comment', row.commentid);
    })();
    return c.body(null, 204);
  });
};
