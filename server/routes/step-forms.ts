import type { Context } from 'hono';
import { z } from 'zod';
import { canViewGuide, guideForRequest, nextModified } from '../guides/access.ts';
import {
  getCurrentForm,
  getCurrentFormsOfGuides,
  getFieldRow,
  getForm,
  insertForm,
  type FormJson,
} from '../step-forms/repo.ts';
import { fieldsOf, getGuideRow } from '../guides/repo.ts';
import { reviseGuide } from '../guides/write.ts';
import { withPrerequisites } from '../guides/prerequisites.ts';
import type { ServerContext } from '../context.ts';
import { FIELD_TYPES } from '../db/schema-content.ts';
import { currentUser, requireUser } from '../http/auth.ts';
import type { AppEnv, RouteModule } from '../http/env.ts';
import { forbidden, invalid, notFound, unauthorized } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { routeId } from '../http/query.ts';
import { recordMutation } from '../testing/audit.ts';

const fieldBody = z
  .object({
    field_guid: z.string().min(1).optional(),
    field_type: z.enum(FIELD_TYPES),
    label: z.string().trim().min(1).max(500),
    placeholder: z.string().max(500).optional(),
    textarea: z.string().max(2000).optional(),
    options: z.array(z.string().min(1)).optional(),
  })
  .superRefine((field, issues) => {
    const choice = field.field_type === 'Radios' || field.field_type === 'Select';
    if (choice && (field.options?.length ?? 0) < 1) {
      issues.addIssue({ code: 'custom', path: ['options'], message: `${field.field_type} needs at least one option` });
    }
  });

/** `POST /step_forms/{stepid}`: the whole new form; a field that keeps its `field_guid` is the same field revised. */
const formBody = z.object({ fields: z.array(fieldBody).max(50) });

/** The form, if the caller may see its guide (404 for a form whose guide is gone, 401/403 for a private one). */
function visible(ctx: ServerContext, c: Context<AppEnv>, form: FormJson | undefined): FormJson {
  const guide = form ? getGuideRow(ctx.db, form.guideid) : undefined;
  if (!form || !guide) throw notFound('No such step form');
  const user = currentUser(c);
  if (!canViewGuide(user, guide)) throw user ? forbidden('This guide is private') : unauthorized();
  return form;
}

/**
 * Step forms of reference 4.10 (shape decided in server/README.md:
 * a form is `{form_revisionid, stepid, guideid, created, fields}`).
 */
export const stepFormsRoutes: RouteModule = (api, ctx) => {
  const id = (c: Context, name: string) => routeId(c.req.param(name)) ?? -1;

  api.get('/step_forms/stepid/:stepid', (c) => c.json(visible(ctx, c, getCurrentForm(ctx.db, id(c, 'stepid')))));
  api.get('/step_forms/form_revisionid/:id', (c) => c.json(visible(ctx, c, getForm(ctx.db, id(c, 'id')))));
  api.get('/step_forms/field_revisionid/:id', (c) => {
    const field = getFieldRow(ctx.db, id(c, 'id'));
    return c.json(visible(ctx, c, field ? getForm(ctx.db, field.form_revisionid) : undefined));
  });

  api.get('/step_forms/guideid/:guideid', (c) => {
    const guide = guideForRequest(ctx.db, c, c.req.param('guideid'));
    const user = currentUser(c);
    const ids = withPrerequisites(ctx.db, guide.guideid).filter((gid) => {
      const row = getGuideRow(ctx.db, gid);
      return row !== undefined && canViewGuide(user, row);
    });
    return c.json(getCurrentFormsOfGuides(ctx.db, ids));
  });

  api.post('/step_forms/:stepid', async (c) => {
    requireUser(c);
    const stepid = id(c, 'stepid');
    const step = ctx.db.prepare('SELECT guideid FROM steps WHERE stepid = ?').get(stepid) as
      { guideid: number } | undefined;
    if (!step) throw notFound('No such step');
    const guide = guideForRequest(ctx.db, c, String(step.guideid), 'edit');
    const { fields } = await readBody(c, formBody);
    const known = new Set(
      (
        ctx.db
          .prepare(
            'SELECT DISTINCT f.field_guid FROM form_fields f ' +
              'JOIN step_forms s USING (form_revisionid) WHERE s.stepid = ?',
          )
          .all(stepid) as { field_guid: string }[]
      ).map((row) => row.field_guid),
    );
    const given = new Set<string>();
    fields.forEach((field, index) => {
      if (field.field_guid === undefined) return;
      if (!known.has(field.field_guid))
        throw invalid(`fields[${index}].field_guid`, 'invalid_value', 'field_guid is not a field of this step');
      if (given.has(field.field_guid))
        throw invalid(`fields[${index}].field_guid`, 'invalid_value', 'field_guid appears twice');
      given.add(field.field_guid);
    });
    const user = requireUser(c);
    const formRevisionid = ctx.db.transaction(() => {
      const now = ctx.clock.now();
      const saved = insertForm(ctx.db, { stepid, guideid: guide.guideid, userid: user.userid, created: now, fields });
      // A form is part of its guide: saving one makes a new guide revision, so a sync sees the change.
      reviseGuide(ctx.db, guide.guideid, fieldsOf(guide), nextModified(guide.modified_date, now), user.userid);
      recordMutation(ctx, c, 'step_form', saved);
      return saved;
    })();
    return c.json(getForm(ctx.db, formRevisionid), 201);
  });
};
