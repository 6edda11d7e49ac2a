import type { QuizAttempt, QuizStage } from '../../../contract.ts';
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

/** Course stages of quizzes and the attempts taken on this computer. */
export class QuizzesRepo {
  constructor(private readonly db: Db) {}

  replaceStages(quizid: number, stages: QuizStage[]): void {
    sql(this.db, 'DELETE FROM quiz_stages WHERE quizid = ?').run(quizid);
    for (const stage of stages) {
      sql(this.db, 'INSERT OR REPLACE INTO quiz_stages (quizid, course_stageid, title, passing_score) VALUES (?, ?, ?, ?)').run(
        quizid,
        stage.courseStageid,
        stage.title,
        stage.passingScore,
      );
    }
  }

  stages(quizid: number): QuizStage[] {
    return sql(this.db, 'SELECT course_stageid AS courseStageid, title, passing_score AS passingScore FROM quiz_stages WHERE quizid = ? ORDER BY course_stageid').all(
      quizid,
    ) as QuizStage[];
  }

  insertAttempt(attempt: Omit<AttemptRow, 'attemptid' | 'site_score' | 'site_passed'>): void {
    sql(
      this.db,
      `INSERT INTO quiz_attempts (id, quizid, quiz_revisionid, title, course_stageid, answers, score, passed, passing_score, results, started_at, finished_at)
       VALUES (@id, @quizid, @quiz_revisionid, @title, @course_stageid, @answers, @score, @passed, @passing_score, @results, @started_at, @finished_at)`,
    ).run(attempt);
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
    const pending = sql(this.db, "SELECT state, last_error AS error FROM outbox WHERE chain = ? ORDER BY id LIMIT 1").get(`quiz:${id}`) as
      | { state: string; error: string | null }
      | undefined;
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
    };
  }

  attempts(quizid: number | undefined): QuizAttempt[] {
    const rows = (
      quizid === undefined
        ? sql(this.db, 'SELECT id FROM quiz_attempts ORDER BY finished_at DESC, id').all()
        : sql(this.db, 'SELECT id FROM quiz_attempts WHERE quizid = ? ORDER BY finished_at DESC, id').all(quizid)
    ) as { id: string }[];
    return rows.map((r) => this.attempt(r.id)!);
  }
}
