import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuizRevision } from '../../electron/contract.ts';
import { scoredQuestions } from '../../electron/core/quiz/scoring.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { startTestSite } from '../server/helpers.ts';
import { allLocalGuides, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Quizzes taken with no network, scored here, replayed to the real site; a malformed quiz is refused
// with a clear message without hurting the library's sync.
let site: RunningSite;
let proxy: FaultProxy;
let app: ReturnType<typeof makeServices>;
let quizzes: QuizRevision[];
let malformedRevision: number;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  // One more quiz on a demo guide, of a type nobody can score: it must not stop the sync.
  const now = Math.floor(Date.now() / 1000);
  const quizid = Number(
    site.db
      .prepare(
        'INSERT INTO quizzes (title, description, passing_score, created, modified) ' +
          "VALUES ('Broken quiz', '', 50, ?, ?)",
      )
      .run(now, now).lastInsertRowid,
  );
  malformedRevision = Number(
    site.db
      .prepare('INSERT INTO quiz_revisions (quizid, survey, created) VALUES (?, ?, ?)')
      .run(
        quizid,
        JSON.stringify({ pages: [{ elements: [{ type: 'signaturepad', name: 'sign', correctAnswer: 'x' }] }] }),
        now,
      ).lastInsertRowid,
  );
  site.db.prepare('UPDATE quizzes SET current_revisionid = ? WHERE quizid = ?').run(malformedRevision, quizid);
  site.db.prepare('INSERT INTO quiz_associations (guideid, quizid, created) VALUES (2, ?, ?)').run(quizid, now);
  site.db.prepare('UPDATE guide_revisions SET modified_date = modified_date + 1 WHERE guideid = 2').run();

  // A course quiz on no guide: it reaches the library through the site's quiz list.
  const courseQuiz = Number(
    site.db
      .prepare(
        'INSERT INTO quizzes (title, description, passing_score, created, modified) ' +
          "VALUES ('Shop Fire Safety', '', 60, ?, ?)",
      )
      .run(now, now).lastInsertRowid,
  );
  const courseRevision = site.db.prepare('INSERT INTO quiz_revisions (quizid, survey, created) VALUES (?, ?, ?)').run(
    courseQuiz,
    JSON.stringify({
      pages: [
        {
          elements: [
            { type: 'boolean', name: 'water-on-oil', title: 'Water puts out an oil fire.', correctAnswer: false },
          ],
        },
      ],
    }),
    now,
  ).lastInsertRowid;
  site.db.prepare('UPDATE quizzes SET current_revisionid = ? WHERE quizid = ?').run(courseRevision, courseQuiz);

  proxy = await startFaultProxy({ target: { port: site.port } });
  app = makeServices();
  unwrap(
    await app.services.api.signIn({
      siteUrl: proxy.url,
      email: DEMO_ACCOUNTS.tech1.email,
      password: DEMO_ACCOUNTS.tech1.password,
    }),
  );
  expect(unwrap(await app.services.api.syncNow())).toMatchObject({ status: 'complete', error: null });
  quizzes = [];
  for (const quiz of unwrap(await app.services.api.listQuizzes())) {
    const revision = await app.services.api.getQuiz(quiz.quizRevisionid);
    if (revision.ok) quizzes.push(revision.value);
  }
});
afterAll(async () => {
  await app?.dispose();
  await proxy?.close();
  await site?.close();
});

const answersFor = (quiz: QuizRevision, right: boolean) =>
  Object.fromEntries(scoredQuestions(quiz.survey).map((q) => [q.name, right ? q.expected : 'certainly not this']));

describe('quizzes offline', () => {
  it('a malformed quiz is refused with what is wrong, and the rest of the library synced', async () => {
    const refused = await app.services.api.getQuiz(malformedRevision);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringContaining('type "signaturepad", which Fieldguide cannot score'),
      },
    });
    expect(quizzes.map((q) => q.title).sort()).toEqual([
      'Air Compressor Safety',
      'Band Saw Blade Change',
      'Forklift Pre-Shift Check',
      'Shop Fire Safety',
    ]);
    const courseOnly = unwrap(await app.services.api.listQuizzes()).find((q) => q.title === 'Shop Fire Safety')!;
    expect(courseOnly).toMatchObject({ guideids: [], passingScore: 60 });
    expect((await allLocalGuides(app.services.api)).every((g) => g.offline === 'full')).toBe(true);
  });

  it('scores attempts offline with the passing score that applies, then the site records each once', async () => {
    proxy.setSchedule(always({ kind: 'reset' }));
    const pass = quizzes.find((q) => q.title === 'Air Compressor Safety')!;
    const fail = quizzes.find((q) => q.title === 'Forklift Pre-Shift Check')!;
    const started = Math.floor(Date.now() / 1000) - 120;
    const passed = unwrap(
      await app.services.api.submitQuizAttempt({
        quizRevisionid: pass.quizRevisionid,
        answers: answersFor(pass, true),
        startedAt: started,
      }),
    );
    const failed = unwrap(
      await app.services.api.submitQuizAttempt({
        quizRevisionid: fail.quizRevisionid,
        answers: answersFor(fail, false),
        startedAt: started,
      }),
    );
    const stage = pass.stages[0];
    expect(passed).toMatchObject({
      score: 100,
      passed: true,
      sync: 'pending',
      passingScore: stage?.passingScore ?? pass.passingScore,
    });
    expect(failed.passed).toBe(failed.score >= (failed.passingScore ?? 100));
    expect(failed).toMatchObject({ passed: false, sync: 'pending' });
    expect(failed.questions[0]).toMatchObject({ correct: false, given: 'certainly not this' });
    const waiting = unwrap(await app.services.api.getOutbox()).summary;
    expect(waiting.pending + waiting.inFlight).toBe(2);

    proxy.passAll();
    expect(unwrap(await app.services.api.flushOutbox())).toMatchObject({ pending: 0, failed: 0 });
    const history = unwrap(await app.services.api.listQuizAttempts({}));
    for (const mine of [passed, failed]) {
      const sent = history.find((a) => a.id === mine.id)!;
      expect(sent.sync).toBe('sent');
      const row = site.db
        .prepare('SELECT score, passed, client_uuid FROM quiz_attempts WHERE attemptid = ?')
        .get(sent.siteAttemptid) as { score: number; passed: number; client_uuid: string };
      expect(row).toEqual({ score: mine.score, passed: mine.passed ? 1 : 0, client_uuid: mine.id });
    }
    expect((await audit(site, 'quiz_attempt')).length).toBeLessThanOrEqual(2);
  });
});

describe("a quiz's pass mark changed on the site", () => {
  it('reaches the revision kept here at the next sync, with no new revision', async () => {
    // A quiz walk: the site raised the pass mark from 70% to 90%; after Sync now the laptop still scored
    // against 70% (the quiz list skipped a revision it kept), and a pass here was the site's fail.
    const api = app.services.api;
    proxy.passAll();
    const quiz = unwrap(await api.listQuizzes()).find((q) => q.title === 'Shop Fire Safety')!;
    expect(quiz.passingScore).toBe(60);
    const now = Math.floor(Date.now() / 1000);
    site.db.prepare('UPDATE quizzes SET passing_score = 90, modified = ? WHERE quizid = ?').run(now, quiz.quizid);
    expect(unwrap(await api.syncNow())).toMatchObject({ status: 'complete', error: null });
    expect(unwrap(await api.listQuizzes()).find((q) => q.quizid === quiz.quizid)?.passingScore).toBe(90);
    expect(unwrap(await api.getQuiz(quiz.quizRevisionid)).passingScore).toBe(90);
  });
});
