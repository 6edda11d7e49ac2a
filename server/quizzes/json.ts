import type { Db } from '../db/types.ts';
import { questionsOf, type QuizRow, type SurveyJson } from './repo.ts';

/** A quiz in `getQuizzes` results (shape decided here; see server/README.md). */
export function quizSummaryJson(db: Db, quiz: QuizRow) {
  const revision = db
    .prepare('SELECT survey FROM quiz_revisions WHERE quizRevisionid = ?')
    .get(quiz.current_revisionid) as { survey: string } | undefined;
  const guideids = (
    db.prepare('SELECT guideid FROM quiz_associations WHERE quizid = ? ORDER BY guideid').all(quiz.quizid) as {
      guideid: number;
    }[]
  ).map((row) => row.guideid);
  return {
    quizid: quiz.quizid,
    quizRevisionid: quiz.current_revisionid,
    title: quiz.title,
    description: quiz.description,
    passing_score: quiz.passing_score,
    question_count: revision ? questionsOf(JSON.parse(revision.survey) as SurveyJson).length : 0,
    guideids,
    created: quiz.created,
    modified: quiz.modified,
  };
}

/** `GET /quizzes/associations/{guideid}`: the guide's quizzes with their current revision. */
export function associationsJson(db: Db, guideid: number) {
  return db
    .prepare(
      `SELECT a.guideid, q.quizid, q.current_revisionid AS quizRevisionid, q.title, q.passing_score
       FROM quiz_associations a JOIN quizzes q USING (quizid) WHERE a.guideid = ? ORDER BY q.quizid`,
    )
    .all(guideid) as {
    guideid: number;
    quizid: number;
    quizRevisionid: number;
    title: string;
    passing_score: number;
  }[];
}

/** Course assignments of the courses whose stages hold the quiz. */
export function courseAssignmentsJson(db: Db, quizid: number) {
  return db
    .prepare(
      `SELECT a.course_assignmentid, a.courseid, c.title AS course_title, s.course_stageid, s.title AS stage_title,
         a.userid, a.teamid, a.assigned_date, a.due_date
       FROM course_stage_quizzes sq JOIN course_stages s USING (course_stageid)
       JOIN courses c ON c.courseid = s.courseid
       JOIN course_assignments a ON a.courseid = c.courseid
       WHERE sq.quizid = ? ORDER BY a.course_assignmentid, s.course_stageid`,
    )
    .all(quizid);
}

/** The stage's own passing score when it has one and holds the quiz, else the quiz's default. */
export function passingScore(
  db: Db,
  quiz: QuizRow,
  courseStageid: number | null,
): { passingScore: number; source: 'course_stage' | 'quiz' } {
  if (courseStageid !== null) {
    const stage = db
      .prepare(
        `SELECT s.passing_score FROM course_stages s JOIN course_stage_quizzes q USING (course_stageid)
         WHERE s.course_stageid = ? AND q.quizid = ?`,
      )
      .get(courseStageid, quiz.quizid) as { passing_score: number | null } | undefined;
    if (stage?.passing_score != null) return { passingScore: stage.passing_score, source: 'course_stage' };
  }
  return { passingScore: quiz.passing_score, source: 'quiz' };
}

export interface AttemptRow {
  attemptid: number;
  userid: number;
  quizid: number;
  quizRevisionid: number;
  course_stageid: number | null;
  answers: string;
  score: number;
  passed: number;
  started: number;
  finished: number;
  client_uuid: string | null;
}

/** DESIGN.md §7: `{quizid, quizRevisionid, answers, score, passed, started, finished}`, plus ids. */
export function attemptJson(row: AttemptRow) {
  return {
    attemptid: row.attemptid,
    userid: row.userid,
    quizid: row.quizid,
    quizRevisionid: row.quizRevisionid,
    course_stageid: row.course_stageid,
    answers: JSON.parse(row.answers) as Record<string, unknown>,
    score: row.score,
    passed: row.passed === 1,
    started: row.started,
    finished: row.finished,
    client_uuid: row.client_uuid,
  };
}
