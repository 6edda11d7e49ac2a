import { z } from 'zod';
import { findDocument } from '../approvals/documents.ts';
import { processDetail, processSummary } from '../approvals/render.ts';
import { findProcesses, getProcess, insertProcess } from '../approvals/repo.ts';
import { canEditGuide } from '../guides/access.ts';
import { canEditContent, requirePrivilege, requireUser } from '../http/auth.ts';
import type { RouteModule } from '../http/env.ts';
import { forbidden, invalid, invalidMany, notFound, type ErrorDetail } from '../http/errors.ts';
import { readBody } from '../http/json.ts';
import { pagedResult, parsePaging } from '../http/paging.ts';
import { routeId } from '../http/query.ts';
import { siteOrigin } from '../http/urls.ts';
import { getTeam } from '../teams/repo.ts';
import { recordMutation } from '../testing/audit.ts';
import { getUser } from '../users/repo.ts';
import { getWorkspace, workspaceOfCategory } from '../workspaces/repo.ts';

const id = z.number().int().positive();
const newProcess = z.object({
  name: z.string().trim().min(1),
  stages: z
    .array(z.object({ userid: id.optional(), teamid: id.optional(), num_required: id.optional() }))
    .min(1)
    .max(10),
  allow_repeated_signatures: z.boolean().default(false),
  is_default: z.boolean().default(false),
  webhooks_enabled: z.boolean().nullable().default(null),
  // Not in the reference body: which workspace the process serves (null: workspace-less).
  workspaceid: id.nullable().default(null),
});

/**
 * Reference 4.1. Reading processes needs a signed-in user; creating one needs an admin; candidates need
 * edit rights on the document (the content side's rule for guides; content editors for wikis).
 */
export const approvalsRoutes: RouteModule = (api, ctx) => {
  api.get('/approvals/processes', (c) => {
    requireUser(c);
    const paging = parsePaging((name) => c.req.query(name));
    const origin = siteOrigin(c);
    return c.json(findProcesses(ctx.db, paging).rows.map((row) => processSummary(ctx.db, row, origin)));
  });

  api.get('/approvals/process/search/:search_phrase', (c) => {
    requireUser(c);
    const paging = parsePaging((name) => c.req.query(name));
    const search = c.req.param('search_phrase');
    const { rows, total } = findProcesses(ctx.db, { ...paging, order: 'ASC', nameContains: search });
    const origin = siteOrigin(c);
    return c.json(
      pagedResult(
        rows.map((row) => processSummary(ctx.db, row, origin)),
        total,
        paging,
        search,
      ),
    );
  });

  api.get('/approvals/process/candidates/:documentType/:documentid', (c) => {
    const user = requireUser(c);
    const paging = parsePaging((name) => c.req.query(name));
    const type = c.req.param('documentType');
    if (type !== 'guide' && type !== 'wiki' && type !== 'category') {
      throw invalid('documentType', 'invalid_value', 'documentType must be guide, wiki or category');
    }
    const docType = type === 'guide' ? 'guide' : 'wiki';
    const docid = routeId(c.req.param('documentid'));
    const doc = docid === null ? undefined : findDocument(ctx.db, docType, docid);
    if (!doc) throw notFound(`No such ${type}`);
    const canEdit = doc.guide ? canEditGuide(user, doc.guide) : canEditContent(user);
    if (!canEdit) throw forbidden('You cannot edit this document');
    const workspaceid = doc.categoryWikiid === null ? null : workspaceOfCategory(ctx.db, doc.categoryWikiid);
    const { rows, total } = findProcesses(ctx.db, { ...paging, order: 'ASC', workspaceid });
    const origin = siteOrigin(c);
    return c.json({
      workspaceid,
      limit: paging.limit,
      offset: paging.offset,
      totalResults: total,
      moreResults: paging.offset + rows.length < total,
      processes: rows.map((row) => processSummary(ctx.db, row, origin)),
    });
  });

  api.get('/approvals/process/:approval_processid', (c) => {
    requireUser(c);
    const processid = routeId(c.req.param('approval_processid'));
    const process = processid === null ? undefined : getProcess(ctx.db, processid);
    if (!process) throw notFound('No such approval process');
    return c.json(processDetail(ctx.db, process, siteOrigin(c)));
  });

  api.post('/approvals/process', async (c) => {
    requirePrivilege(c, 'Admin');
    const body = await readBody(c, newProcess);
    const problems: ErrorDetail[] = [];
    body.stages.forEach((stage, index) => {
      const field = `stages[${index}]`;
      if ((stage.userid === undefined) === (stage.teamid === undefined)) {
        problems.push({
          field,
          code: 'invalid_value',
          message: `${field}: exactly one of userid and teamid is required`,
        });
      } else if (stage.userid !== undefined && !getUser(ctx.db, stage.userid)) {
        problems.push({
          field: `${field}.userid`,
          code: 'invalid_value',
          message: `${field}.userid: no user has the id ${stage.userid}`,
        });
      } else if (stage.teamid !== undefined && !getTeam(ctx.db, stage.teamid)) {
        problems.push({
          field: `${field}.teamid`,
          code: 'invalid_value',
          message: `${field}.teamid: no team has the id ${stage.teamid}`,
        });
      } else if (stage.teamid !== undefined && stage.num_required === undefined) {
        problems.push({
          field: `${field}.num_required`,
          code: 'missing_field',
          message: `${field}.num_required is required for a team stage`,
        });
      }
    });
    if (body.workspaceid !== null && !getWorkspace(ctx.db, body.workspaceid)) {
      problems.push({
        field: 'workspaceid',
        code: 'invalid_value',
        message: `workspaceid: no workspace has the id ${body.workspaceid}`,
      });
    }
    if (problems.length) throw invalidMany(problems);
    const process = ctx.db.transaction(() => {
      const processid = insertProcess(ctx.db, body, ctx.clock.now());
      recordMutation(ctx, c, 'approval_process', processid);
      return getProcess(ctx.db, processid)!;
    })();
    return c.json(processDetail(ctx.db, process, siteOrigin(c)), 201);
  });
};
