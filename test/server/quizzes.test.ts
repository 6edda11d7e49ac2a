import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_QUIZZES } from '../../server/demo/quizzes.ts';
import { answerMatches, questionsOf } from '../../server/quizzes/repo.ts';
import type { DemoAccountName } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { association, attempt, courseAssignment, quizSummary, surveyQuiz } from './content-schemas.ts';
import { api, call, expectError, expectShape, signInAll, startTestSite, type SignedIn } from './helpers.ts';
import { paged } from './schemas.ts';

const guide = (key: string) => DEMO_GUIDES.findIndex((g) => g.key === key) + 1;
const quiz = (key: string) => DEMO_QUIZZES.findIndex((q) => q.key === key) + 1;
const perfect = (key: string) =>
  Object.fromEntries(questionsOf(DEMO_QUIZZES[quiz(key) - 1]!.survey).map((q) => [q.name, q.correctAnswer]));

let site: RunningSite;
let who: Record<DemoAccountName, SignedIn>;
beforeAll(async () => {
  site = await startTestSite({ demo: true });
  who = await signInAll(site);
});
afterAll(() => site.close());

const getQuizzes = (json: unknown) => api(site, 'POST', '/quizzes/getQuizzes', { json });

describe('POST /quizzes/getQuizzes', () => {
  it('pages, searches, filters and sorts', async () => {
    const all = expectShape(paged(quizSummary), (await getQuizzes({})).body);
    expect(all.results.map((q) => q.title)).toEqual(DEMO_QUIZZES.map((q) => q.title));
    expect(all).toMatchObject({ offset: 0, limit: 20, totalResults: 3, moreResults: false, search: '' });
    expect((await getQuizzes({ limit: 1 })).body).toMatchObject({
      totalResults: 3,
      moreResults: true,
      results: [{ quizid: 1 }],
    });
    expect((await getQuizzes({ limit: 1, offset: 2 })).body).toMatchObject({
      moreResults: false,
      results: [{ quizid: 3 }],
    });
    expect((await getQuizzes({ offset: 3 })).body.results).toEqual([]);
    expect((await getQuizzes({ limit: 200 })).body.results).toHaveLength(3);
    expect((await getQuizzes({ search: 'forklift' })).body.results.map((q: { quizid: number }) => q.quizid)).toEqual([
      quiz('forklift-pre-shift'),
    ]);
    expect(
      (await getQuizzes({ filter: { guideid: guide('compressor-belt') } })).body.results.map(
        (q: { quizid: number }) => q.quizid,
      ),
    ).toEqual([quiz('compressor-safety')]);
    expect((await getQuizzes({ filter: { quizids: [2, 3] } })).body.totalResults).toBe(2);
    const sorted = (await getQuizzes({ sort: { field: 'title', order: 'DESC' } })).body.results.map(
      (q: { title: string }) => q.title,
    );
    expect(sorted).toEqual(
      DEMO_QUIZZES.map((q) => q.title)
        .sort()
        .reverse(),
    );
    expect(
      (await getQuizzes({ sort: { field: 'quizid', order: 'DESC' } })).body.results.map(
        (q: { quizid: number }) => q.quizid,
      ),
    ).toEqual([3, 2, 1]);
  });

  it('refuses bad paging, sorting and JSON', async () => {
    expectError(await getQuizzes({ limit: 0 }), 422, 'limit');
    expectError(await getQuizzes({ limit: 201 }), 422, 'limit');
    expectError(await getQuizzes({ offset: -1 }), 422, 'offset');
    expectError(await getQuizzes({ sort: { field: 'colour' } }), 422, 'sort.field');
    expectError(
      await api(site, 'POST', '/quizzes/getQuizzes', { body: '{', headers: { 'Content-Type': 'application/json' } }),
      400,
    );
    expectError(await api(site, 'GET', '/quizzes/getQuizzes'), 404);
  });
});

describe('GET /quizzes/{quizRevisionid}', () => {
  it('answers SurveyJS JSON with correct answers', async () => {
    const summary = (await getQuizzes({})).body.results[0];
    const survey = expectShape(surveyQuiz, (await api(site, 'GET', `/quizzes/${summary.quizRevisionid}`)).body);
    expect(survey).toMatchObject({
      quizid: summary.quizid,
      quizRevisionid: summary.quizRevisionid,
      title: summary.title,
    });
    expect(survey.pages.flatMap((p) => p.elements).every((q) => q.correctAnswer !== undefined)).toBe(true);
    expectError(await api(site, 'GET', '/quizzes/999'), 404);
  });
});

describe('associations', () => {
  it("lists a guide's quizzes (empty when none)", async () => {
    const belt = expectShape(
      z.array(association),
      (await api(site, 'GET', `/quizzes/associations/${guide('compressor-belt')}`)).body,
    );
    expect(belt.map((a) => a.quizid)).toEqual([quiz('compressor-safety')]);
    expect((await api(site, 'GET', `/quizzes/associations/${guide('lockout')}`)).body).toEqual([]);
    expectError(await api(site, 'GET', '/quizzes/associations/99999'), 404);
  });

  it('adds and removes associations, for admins and authors only', async () => {
    const body = { guideid: guide('lockout'), quizids: [quiz('compressor-safety'), quiz('forklift-pre-shift')] };
    expectError(await api(site, 'POST', '/quizzes/associations', { json: body }), 401);
    expectError(await api(site, 'POST', '/quizzes/associations', { token: who.tech1.token, json: body }), 403);
    expectError(
      await api(site, 'POST', '/quizzes/associations', { token: who.author.token, json: { ...body, quizids: [77] } }),
      422,
      'quizids',
    );
    expectError(
      await api(site, 'POST', '/quizzes/associations', { token: who.author.token, json: { quizids: [1] } }),
      422,
      'guideid',
      'missing_field',
    );
    const added = await api(site, 'POST', '/quizzes/associations', { token: who.author.token, json: body });
    expect(added.body.map((a: { quizid: number }) => a.quizid)).toEqual(body.quizids);
    expect(
      (await api(site, 'POST', '/quizzes/associations', { token: who.admin.token, json: body })).body,
    ).toHaveLength(2);
    expectError(await api(site, 'DELETE', '/quizzes/associations', { token: who.tech2.token, json: body }), 403);
    const removed = await api(site, 'DELETE', '/quizzes/associations', {
      token: who.admin.token,
      json: { guideid: body.guideid, quizids: [quiz('compressor-safety')] },
    });
    expect(removed.body.map((a: { quizid: number }) => a.quizid)).toEqual([quiz('forklift-pre-shift')]);
    const audit = await call('GET', `${site.url}/__test/audit`, { query: { entity: 'quiz_association' } });
    expect(audit.body).toHaveLength(3);
  });
});

describe('passing scores and course assignments', () => {
  it("takes the course stage's passing score when it has one, else the quiz's", async () => {
    const score = async (stage: number, quizid: number) =>
      (await api(site, 'GET', `/quizzes/passingScore/${stage}/${quizid}`)).body;
    expect(await score(1, quiz('compressor-safety'))).toEqual({
      course_stageid: 1,
      quizid: 1,
      passingScore: 90,
      source: 'course_stage',
    });
    expect(await score(2, quiz('forklift-pre-shift'))).toMatchObject({ passingScore: 70, source: 'quiz' });
    expect(await score(1, quiz('forklift-pre-shift'))).toMatchObject({ passingScore: 70, source: 'quiz' });
    expect(await score(0, quiz('bandsaw-blade'))).toMatchObject({
      course_stageid: null,
      passingScore: 75,
      source: 'quiz',
    });
    expectError(await api(site, 'GET', '/quizzes/passingScore/99/1'), 404);
    expectError(await api(site, 'GET', '/quizzes/passingScore/1/99'), 404);
  });

  it('lists the course assignments that reach a quiz (empty when none)', async () => {
    const list = expectShape(
      z.array(courseAssignment),
      (await api(site, 'GET', `/quizzes/courseAssignments/${quiz('compressor-safety')}`)).body,
    );
    expect(list.map((a) => [a.userid === null ? 'team' : 'user', a.stage_title])).toEqual([
      ['team', 'Compressed air'],
      ['user', 'Compressed air'],
    ]);
    site.db
      .prepare("INSERT INTO quizzes (title, passing_score, created, modified) VALUES ('Loose quiz', 50, 0, 0)")
      .run();
    const loose = (site.db.prepare("SELECT quizid FROM quizzes WHERE title = 'Loose quiz'").get() as { quizid: number })
      .quizid;
    expect((await api(site, 'GET', `/quizzes/courseAssignments/${loose}`)).body).toEqual([]);
    expectError(await api(site, 'GET', '/quizzes/courseAssignments/999'), 404);
  });
});

describe('POST /quizzes/attempt', () => {
  const base = () => ({ quizid: 1, quizRevisionid: 1, started: 1_800_000_000, finished: 1_800_000_120 });

  it('records a scored attempt, passed against the stage or quiz passing score', async () => {
    const answers = perfect('compressor-safety');
    const full = await api(site, 'POST', '/quizzes/attempt', { token: who.tech1.token, json: { ...base(), answers } });
    expect(full.status, full.text).toBe(201);
    expect(expectShape(attempt, full.body)).toMatchObject({
      score: 100,
      passed: true,
      userid: who.tech1.userid,
      answers,
    });
    const fourOfFive = { ...answers, 'valve-stamp': 'CE' };
    expect(
      (
        await api(site, 'POST', '/quizzes/attempt', {
          token: who.tech1.token,
          json: { ...base(), answers: fourOfFive },
        })
      ).body,
    ).toMatchObject({ score: 80, passed: true });
    const staged = await api(site, 'POST', '/quizzes/attempt', {
      token: who.tech1.token,
      json: { ...base(), answers: fourOfFive, course_stageid: 1 },
    });
    expect(staged.body).toMatchObject({ score: 80, passed: false, course_stageid: 1 });
  });

  it('lands once per client_uuid', async () => {
    const json = { ...base(), answers: {}, client_uuid: 'attempt-0001' };
    const first = await api(site, 'POST', '/quizzes/attempt', { token: who.tech2.token, json });
    const again = await api(site, 'POST', '/quizzes/attempt', { token: who.tech2.token, json });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual(first.body);
    const audit = await call('GET', `${site.url}/__test/audit`, { query: { entity: 'quiz_attempt' } });
    expect(audit.body.filter((e: { entity_id: string }) => e.entity_id === String(first.body.attemptid))).toHaveLength(
      1,
    );
  });

  it('refuses an anonymous caller and attempts that do not fit', async () => {
    expectError(await api(site, 'POST', '/quizzes/attempt', { json: { ...base(), answers: {} } }), 401);
    expectError(
      await api(site, 'POST', '/quizzes/attempt', {
        token: who.tech1.token,
        json: { ...base(), quizRevisionid: 2, answers: {} },
      }),
      422,
      'quizRevisionid',
    );
    expectError(
      await api(site, 'POST', '/quizzes/attempt', {
        token: who.tech1.token,
        json: { ...base(), quizid: 42, answers: {} },
      }),
      422,
      'quizid',
    );
    expectError(
      await api(site, 'POST', '/quizzes/attempt', {
        token: who.tech1.token,
        json: { ...base(), answers: {}, finished: 1 },
      }),
      422,
      'finished',
    );
    expectError(
      await api(site, 'POST', '/quizzes/attempt', { token: who.tech1.token, json: { ...base() } }),
      422,
      'answers',
      'missing_field',
    );
    expectError(
      await api(site, 'POST', '/quizzes/attempt', {
        token: who.tech1.token,
        json: { ...base(), answers: {}, course_stageid: 77 },
      }),
      422,
      'course_stageid',
    );
  });
});

describe('scoring as SurveyJS does', () => {
  it("a ranking's order is its answer, a checkbox's is not; a number is the number written as text", () => {
    const order = ['Lock out', 'Bleed the tank', 'Remove the guard'];
    const swapped = ['Bleed the tank', 'Lock out', 'Remove the guard'];
    expect(answerMatches(order, order, 'ranking')).toBe(true);
    expect(answerMatches(swapped, order, 'ranking')).toBe(false);
    expect(answerMatches(swapped, order, 'checkbox')).toBe(true);
    expect(answerMatches(4, '4', 'text')).toBe(true);
    expect(answerMatches(' 150 ', 150, 'text')).toBe(true);
    expect(answerMatches(5, '4', 'text')).toBe(false);
    expect(answerMatches(' LOCKOUT', 'lockout', 'text')).toBe(true);
    expect(answerMatches('7', '007', 'text')).toBe(false);
    expect(answerMatches('0xA', 10, 'text')).toBe(false);
  });
});
