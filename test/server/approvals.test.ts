import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  assignDocument,
  insertProcess,
  insertRequest,
  insertSignature,
  stagesOf,
} from '../../server/approvals/repo.ts';
import type { Db } from '../../server/db/types.ts';
import type { RunningSite } from '../../server/site.ts';
import { getUserByEmail } from '../../server/users/repo.ts';
import { seedDocs, SEED_TIME, type DocsFixture } from './docs-seed.ts';
import { api, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { paged, processDetail, processSummary } from './schemas.ts';

// Left out of the run's request check against iFixit's description (server/testing/request-check.ts).
const UNCHECKED = {
  uncheckedBecause:
    "the seed's approval endpoints, which iFixit's description lacks and the client never asks, and their refusals",
};

let site: RunningSite;
let docs: DocsFixture;
let seededProcess: number;
let admin: SignedIn;
let author: SignedIn;
let tech1: SignedIn;
let tech2: SignedIn;
let crewid: number;

/** A workspace-less process that governs the plain guide, with one request half signed. */
function seed(db: Db): void {
  docs = seedDocs(db);
  const userid = (email: string) => getUserByEmail(db, email)!.userid;
  crewid = (db.prepare('SELECT teamid FROM teams').get() as { teamid: number }).teamid;
  seededProcess = insertProcess(
    db,
    {
      name: 'Safety sign-off',
      stages: [{ userid: userid('author@demo.test') }, { teamid: crewid, num_required: 2 }],
      allow_repeated_signatures: false,
      is_default: true,
      webhooks_enabled: null,
      workspaceid: null,
    },
    SEED_TIME,
  );
  assignDocument(db, seededProcess, 'guide', docs.plainGuideid);
  const revisionid = (
    db.prepare('SELECT revisionid FROM guides WHERE guideid = ?').get(docs.plainGuideid) as { revisionid: number }
  ).revisionid;
  const requestid = insertRequest(
    db,
    { processid: seededProcess, guideid: docs.plainGuideid, revisionid, userid: userid('author@demo.test') },
    SEED_TIME,
  );
  const [first, second] = stagesOf(db, seededProcess);
  insertSignature(
    db,
    { requestid, stageid: first!.approval_process_stageid, userid: userid('author@demo.test'), status: 'approve' },
    SEED_TIME + 60,
  );
  insertSignature(
    db,
    { requestid, stageid: second!.approval_process_stageid, userid: userid('tech1@demo.test'), status: 'approve' },
    SEED_TIME + 120,
  );
}

beforeAll(async () => {
  site = await startTestSite({ seed, ...UNCHECKED });
  ({ admin, author, tech1, tech2 } = await signInAll(site));
});
afterAll(() => site.close());

const create = (body: unknown, token = admin.token) => api(site, 'POST', '/approvals/process', { token, json: body });
const processes = z.array(processSummary);

describe('POST /approvals/process', () => {
  it('creates a process with user and team stages: 201 and the detail', async () => {
    const answer = await create({
      name: 'Electrical release',
      stages: [{ userid: author.userid }, { teamid: crewid, num_required: 1 }],
      allow_repeated_signatures: true,
    });
    expect(answer.status).toBe(201);
    const body = expectShape(processDetail, answer.body);
    expect(body).toMatchObject({
      name: 'Electrical release',
      allow_repeated_signatures: true,
      is_default: false,
      status: 'enabled',
      webhooks_enabled: null,
      guides: [],
      requests: [],
      num_guides: 0,
      num_requests: 0,
      is_satisfiable: true,
    });
    expect(body.stages[0]).toMatchObject({ user: { userid: author.userid } });
    expect(body.stages[1]).toMatchObject({ team: { teamid: crewid, member_count: 2 }, num_required: 1 });
  });

  it('accepts 10 stages, keeps webhooks_enabled, and a new default replaces the old one', async () => {
    const stages = Array.from({ length: 10 }, () => ({ userid: admin.userid }));
    const answer = await create({ name: 'Ten eyes', stages, is_default: true, webhooks_enabled: false });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ is_default: true, webhooks_enabled: false });
    expect(answer.body.stages).toHaveLength(10);
    const seeded = await api(site, 'GET', `/approvals/process/${seededProcess}`, { token: admin.token });
    expect(seeded.body.is_default).toBe(false);
  });

  it('names the field of every rule it refuses', async () => {
    expectError(await create({ stages: [{ userid: admin.userid }] }), 422, 'name', 'missing_field');
    expectError(await create({ name: 'No stages' }), 422, 'stages', 'missing_field');
    expectError(await create({ name: 'Empty', stages: [] }), 422, 'stages', 'invalid_value');
    expectError(
      await create({ name: 'Eleven', stages: Array.from({ length: 11 }, () => ({ userid: admin.userid })) }),
      422,
      'stages',
    );
    expectError(
      await create({ name: 'Both', stages: [{ userid: admin.userid, teamid: crewid, num_required: 1 }] }),
      422,
      'stages[0]',
    );
    expectError(await create({ name: 'Neither', stages: [{ userid: admin.userid }, {}] }), 422, 'stages[1]');
    expectError(
      await create({ name: 'Count', stages: [{ teamid: crewid }] }),
      422,
      'stages[0].num_required',
      'missing_field',
    );
    expectError(await create({ name: 'Ghost', stages: [{ userid: 9999 }] }), 422, 'stages[0].userid');
    expectError(
      await create({ name: 'Ghost team', stages: [{ teamid: 9999, num_required: 1 }] }),
      422,
      'stages[0].teamid',
    );
    expectError(
      await create({ name: 'Zero', stages: [{ teamid: crewid, num_required: 0 }] }),
      422,
      'stages[0].num_required',
    );
    expectError(
      await create({ name: 'Odd', stages: [{ userid: admin.userid }], is_default: 'yes' }),
      422,
      'is_default',
    );
    expectError(await api(site, 'POST', '/approvals/process', { token: admin.token, body: '{"name":' }), 400);
  });

  it('is for admins', async () => {
    expectError(await create({ name: 'Mine', stages: [{ userid: author.userid }] }, author.token), 403);
    expectError(
      await api(site, 'POST', '/approvals/process', { json: { name: 'Mine', stages: [{ userid: 1 }] } }),
      401,
    );
  });

  it('says when a stage cannot be completed', async () => {
    const answer = await create({
      name: 'Needs three',
      stages: [{ userid: author.userid }, { teamid: crewid, num_required: 3 }],
    });
    expect(answer.body.is_satisfiable).toBe(false);
    expect(answer.body.stages.map((stage: { is_satisfiable: boolean }) => stage.is_satisfiable)).toEqual([true, false]);
  });
});

describe('GET /approvals/process/{id}', () => {
  it('answers the detail with the guides it governs and its pending requests', async () => {
    const answer = await api(site, 'GET', `/approvals/process/${seededProcess}`, { token: tech2.token });
    const body = expectShape(processDetail, answer.body);
    expect(body.guides).toEqual([{ guideid: docs.plainGuideid, langid: 'en' }]);
    expect(body).toMatchObject({ num_guides: 1, num_requests: 1 });
    const [request] = body.requests;
    expect(request?.guide).toMatchObject({ guideid: docs.plainGuideid, title: 'Drain a compressor tank' });
    expect(request?.stages.map((stage) => [stage.status, stage.approved, stage.signatures.length])).toEqual([
      ['complete', true, 1],
      ['pending', false, 1],
    ]);
  });

  it('answers 404 for an unknown process and 401 without a token', async () => {
    expectError(await api(site, 'GET', '/approvals/process/9999', { token: tech1.token }), 404);
    expectError(await api(site, 'GET', `/approvals/process/${seededProcess}`), 401);
  });
});

describe('GET /approvals/processes', () => {
  it('lists by approval_processid, ASC by default and DESC on request', async () => {
    const asc = expectShape(
      processes,
      (await api(site, 'GET', '/approvals/processes', { token: tech1.token, query: { limit: 200 } })).body,
    );
    const ids = asc.map((process) => process.approval_processid);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.length).toBeGreaterThanOrEqual(4);
    const desc = (
      await api(site, 'GET', '/approvals/processes', { token: tech1.token, query: { limit: 200, order: 'DESC' } })
    ).body;
    expect(desc).toEqual([...asc].reverse());
  });

  it('pages: limit 1, offset past the end, limit bounds', async () => {
    const all = (await api(site, 'GET', '/approvals/processes', { token: tech1.token, query: { limit: 200 } })).body;
    expect(
      (await api(site, 'GET', '/approvals/processes', { token: tech1.token, query: { limit: 1, offset: 1 } })).body,
    ).toEqual([all[1]]);
    expect(
      (await api(site, 'GET', '/approvals/processes', { token: tech1.token, query: { offset: all.length } })).body,
    ).toEqual([]);
    expectError(
      await api(site, 'GET', '/approvals/processes', { token: tech1.token, query: { limit: 201 } }),
      422,
      'limit',
    );
    expectError(await api(site, 'GET', '/approvals/processes'), 401);
  });
});

describe('GET /approvals/process/search/{phrase}', () => {
  it('matches any part of the name, any case, in a paged object', async () => {
    const answer = await api(site, 'GET', '/approvals/process/search/SIGN', { token: tech1.token });
    const body = expectShape(paged(processSummary), answer.body);
    expect(body.results.map((process) => process.name)).toEqual(['Safety sign-off']);
    expect(body).toMatchObject({ search: 'SIGN', totalResults: 1, moreResults: false, offset: 0, limit: 20 });
  });

  it('pages with moreResults and past the end', async () => {
    // "e" is in every name created above.
    const all = (await api(site, 'GET', '/approvals/process/search/e', { token: tech1.token, query: { limit: 200 } }))
      .body;
    expect(all.totalResults).toBeGreaterThanOrEqual(3);
    const first = (await api(site, 'GET', '/approvals/process/search/e', { token: tech1.token, query: { limit: 1 } }))
      .body;
    expect(first).toMatchObject({ limit: 1, moreResults: true, totalResults: all.totalResults });
    expect(first.results).toEqual([all.results[0]]);
    const past = (
      await api(site, 'GET', '/approvals/process/search/e', { token: tech1.token, query: { offset: all.totalResults } })
    ).body;
    expect(past).toMatchObject({ results: [], moreResults: false });
    expect((await api(site, 'GET', '/approvals/process/search/zzz', { token: tech1.token })).body.totalResults).toBe(0);
  });
});

describe('GET /approvals/process/candidates/{documentType}/{documentid}', () => {
  const candidates = (type: string, id: number | string, token?: string, query?: Record<string, number>) =>
    api(site, 'GET', `/approvals/process/candidates/${type}/${id}`, { token, query });
  const candidatesBody = z.object({
    workspaceid: z.number().int().nullable(),
    limit: z.number().int(),
    offset: z.number().int(),
    totalResults: z.number().int(),
    moreResults: z.boolean(),
    processes: z.array(processSummary),
  });

  it("offers the processes of the document's workspace", async () => {
    const scoped = await create({
      name: 'Line sign-off',
      stages: [{ userid: admin.userid }],
      workspaceid: docs.workspaceid,
    });
    expect(scoped.status).toBe(201);
    const answer = await candidates('guide', docs.workspaceGuideid, tech1.token);
    const body = expectShape(candidatesBody, answer.body);
    expect(body.workspaceid).toBe(docs.workspaceid);
    expect(body.processes.map((process) => process.name)).toEqual(['Line sign-off']);
    const category = (await candidates('category', docs.childCategoryid, author.token)).body;
    expect(category.workspaceid).toBe(docs.workspaceid);
    expect((await candidates('wiki', docs.childCategoryid, author.token)).body).toEqual(category);
  });

  it('offers workspace-less processes for a document in no workspace, paged', async () => {
    const answer = (await candidates('guide', docs.plainGuideid, author.token, { limit: 200 })).body;
    expect(answer.workspaceid).toBeNull();
    expect(answer.processes.map((process: { name: string }) => process.name)).toContain('Safety sign-off');
    expect(answer.processes.map((process: { name: string }) => process.name)).not.toContain('Line sign-off');
    const one = (await candidates('guide', docs.plainGuideid, author.token, { limit: 1 })).body;
    expect(one).toMatchObject({ limit: 1, moreResults: true, totalResults: answer.totalResults });
    const past = (await candidates('guide', docs.plainGuideid, author.token, { offset: answer.totalResults })).body;
    expect(past).toMatchObject({ processes: [], moreResults: false });
  });

  it('answers 403 to a caller who cannot edit the document', async () => {
    // tech1 wrote the workspace guide; tech2 did not and holds no editing privilege.
    expect((await candidates('guide', docs.workspaceGuideid, tech1.token)).status).toBe(200);
    expectError(await candidates('guide', docs.workspaceGuideid, tech2.token), 403);
    expectError(await candidates('guide', docs.plainGuideid, tech1.token), 403);
    expectError(await candidates('category', docs.childCategoryid, tech1.token), 403);
    expectError(await candidates('guide', docs.plainGuideid), 401);
  });

  it('answers 404 for a missing document and 422 for an unknown type', async () => {
    expectError(await candidates('guide', 9999, admin.token), 404);
    expectError(await candidates('wiki', 9999, admin.token), 404);
    expectError(await candidates('video', 1, admin.token), 422, 'documentType');
  });
});
