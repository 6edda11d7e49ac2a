import type Database from 'better-sqlite3';

/**
 * Quizzes offline.
 * - `quiz_stages`: the course stages that hold a quiz for this technician, with the passing score each
 *   sets (the stage's score applies when there is one, else the quiz's).
 * - `quiz_attempts`: every attempt taken here, scored locally; `attemptid` is the site's once replayed.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE quiz_stages (
      quizid INTEGER NOT NULL,
      course_stageid INTEGER NOT NULL,
      title TEXT NOT NULL,
      passing_score REAL,
      PRIMARY KEY (quizid, course_stageid)
    ) STRICT;

    CREATE TABLE quiz_attempts (
      id TEXT PRIMARY KEY,
      quizid INTEGER NOT NULL,
      quiz_revisionid INTEGER NOT NULL,
      title TEXT NOT NULL,
      course_stageid INTEGER,
      answers TEXT NOT NULL,
      score INTEGER NOT NULL,
      passed INTEGER NOT NULL,
      passing_score REAL,
      results TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      finished_at INTEGER NOT NULL,
      attemptid INTEGER,
      site_score INTEGER,
      site_passed INTEGER
    ) STRICT;
    CREATE INDEX quiz_attempts_quiz ON quiz_attempts(quizid, finished_at);
  `);
}
