import type { QuizAttempt, QuizRevision, QuizStage } from '../../../contract.ts';
import { chainKey } from '../chains.ts';
import { nextRead } from '../read-order.ts';
import type { Db } from '../open.ts';
import { sql } from '../statements.ts';

interface AttemptRow {
  id: string;
  quizid: number;
  quiz_revisionid: number;
  title: string;
  course_stageid: number | null;
  answers: string;
  score: number;
  passed: number;
  passing_score: number | null;
  results: string;
  started_at: number;
  finished_at: number;
  attemptid: number | null;
  site_score: number | null;
  site_passed: number | null;
}

/** Stored quiz revisions with their course stages, and the attempts taken on this computer. */
export class QuizzesRepo {
  constructor(private readonly db: Db) {}

  /** A quiz revision and its course stages (with a guide, or from the site's quiz list). */
  storeQuiz(quiz: QuizRevision): void {
    sql(
      this.db,
      'INSERT OR REPLACE INTO quiz_revisions (quiz_revisionid, quizid, title, survey, passing_score) ' +
        'VALUES (?, ?, ?, ?, ?)',
    ).run(quiz.quizRevisionid, quiz.quizid, quiz.title, JSON.stringify(quiz.survey), quiz.passingScore);
    sql(this.db, 'DELETE FROM quiz_stages WHERE quizid = ?').run(quiz.quizid);
    for (const stage of quiz.stages) {
      sql(
        this.db,
        'INSERT OR REPLACE INTO quiz_stages (quizid, course_stageid, title, passing_score) VALUES (?, ?, ?, ?)',
      ).run(quiz.quizid, stage.courseStageid, stage.title, stage.passingScore);
    }
  }

  /** The newest stored revision of every quiz, each with the stored guides it is attached to. */
  storedQuizzes(): {
    quizid: number;
    quizRevisionid: number;
    title: string;
    passingScore: number | null;
    guideids: number[];
  }[] {
    const rows = sql(
      this.db,
      `SELECT q.quizid, q.quiz_revisionid AS quizRevisionid, q.title, q.passing_score AS passingScore,
         (SELECT json_group_array(g.guideid) FROM guide_quizzes g WHERE g.quizid = q.quizid) AS guideids
       FROM quiz_revisions q
       WHERE q.quiz_revisionid = (SELECT max(quiz_revisionid) FROM quiz_revisions r WHERE r.quizid = q.quizid)
       ORDER BY q.title`,
    ).all() as {
      quizid: number;
      quizRevisionid: number;
      title: string;
      passingScore: number | null;
      guideids: string;
    }[];
    return rows.map((r) => ({ ...r, guideids: JSON.parse(r.guideids) as number[] }));
  }

  /** The stored guides a quiz is attached to. */
  guidesOf(quizid: number): number[] {
    return (
      sql(this.db, 'SELECT guideid FROM guide_quizzes WHERE quizid = ?').all(quizid) as { guideid: number }[]
    ).map((r) => r.guideid);
  }

  /** The quiz's own pass mark, as the site's list says it now (it changes without a new revision). */
  setPassingScore(quizRevisionid: number, passingScore: number): void {
    sql(this.db, 'UPDATE quiz_revisions SET passing_score = ? WHERE quiz_revisionid = ?').run(
      passingScore,
      quizRevisionid,
    );
  }

  /** A stored quiz revision (without its stages). */
  revision(quizRevisionid: number): Omit<QuizRevision, 'stages'> | undefined {
    const row = sql(this.db, 'SELECT * FROM quiz_revisions WHERE quiz_revisionid = ?').get(quizRevisionid) as
      | { quiz_revisionid: number; quizid: number; title: string; survey: string; passing_score: number | null }
      | undefined;
    if (!row) return undefined;
    return {
      quizid: row.quizid,
      quizRevisionid: row.quiz_revisionid,
      title: row.title,
      survey: JSON.parse(row.survey),
      passingScore: row.passing_score,
    };
  }

  stages(quizid: number): QuizStage[] {
    return sql(
      this.db,
      'SELECT course_stageid AS courseStageid, title, passing_score AS passingScore ' +
        'FROM quiz_stages WHERE quizid = ? ORDER BY course_stageid',
    ).all(quizid) as QuizStage[];
  }

  insertAttempt(attempt: Omit<AttemptRow, 'attemptid' | 'site_score' | 'site_passed'> & { technician: number }): void {
    sql(
      this.db,
      `INSERT INTO quiz_attempts (id, quizid, quiz_revisionid, title, course_stageid, answers, score, passed,
         passing_score, results, started_at, finished_at, technician)
       VALUES (@id, @quizid, @quiz_revisionid, @title, @course_stageid, @answers, @score, @passed,
         @passing_score, @results, @started_at, @finished_at, @technician)`,
    ).run(attempt);
  }

  technicianOf(id: string): number | null {
    return (
      (
        sql(this.db, 'SELECT technician FROM quiz_attempts WHERE id = ?').get(id) as
          { technician: number | null } | undefined
      )?.technician ?? null
    );
  }

  recorded(id: string, site: { attemptid: number; score: number | null; passed: boolean | null }): void {
    sql(this.db, 'UPDATE quiz_attempts SET attemptid = ?, site_score = ?, site_passed = ? WHERE id = ?').run(
      site.attemptid,
      site.score,
      site.passed === null ? null : site.passed ? 1 : 0,
      id,
    );
  }

  row(id: string): AttemptRow | undefined {
    return sql(this.db, 'SELECT * FROM quiz_attempts WHERE id = ?').get(id) as AttemptRow | undefined;
  }

  attempt(id: string): QuizAttempt | undefined {
    const row = this.row(id);
    if (!row) return undefined;
    const pending = sql(
      this.db,
      'SELECT state, last_error AS error FROM outbox WHERE chain = ? ORDER BY id LIMIT 1',
    ).get(chainKey({ type: 'quiz', id })) as { state: string; error: string | null } | undefined;
    return {
      id: row.id,
      quizid: row.quizid,
      quizRevisionid: row.quiz_revisionid,
      title: row.title,
      courseStageid: row.course_stageid,
      answers: JSON.parse(row.answers) as Record<string, unknown>,
      score: row.score,
      passed: row.passed === 1,
      passingScore: row.passing_score,
      questions: JSON.parse(row.results) as QuizAttempt['questions'],
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      sync: row.attemptid !== null ? 'sent' : pending?.state === 'failed' ? 'failed' : 'pending',
      syncError: pending?.error ?? null,
      siteAttemptid: row.attemptid,
      site:
        row.attemptid !== null && (row.site_score !== null || row.site_passed !== null)
          ? { score: row.site_score, passed: row.site_passed === null ? null : row.site_passed === 1 }
          : null,
      readOrder: nextRead(),
    };
  }

  /** One technician's attempts (of one quiz, or all), newest first. */
  attempts(quizid: number | undefined, technician: number): QuizAttempt[] {
    const rows = (
      quizid === undefined
        ? sql(this.db, 'SELECT id FROM quiz_attempts WHERE technician = ? ORDER BY finished_at DESC, id').all(
            technician,
          )
        : sql(
            this.db,
            'SELECT id FROM quiz_attempts WHERE technician = ? AND quizid = ? ORDER BY finished_at DESC, id',
          ).all(technician, quizid)
    ) as { id: string }[];
    return rows.map((r) => this.attempt(r.id)!);
  }
}
