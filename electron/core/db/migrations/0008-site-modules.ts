import type Database from 'better-sqlite3';

/**
 * Sites differ (issue 15). `site_modules` keeps, per site, what each module (step forms, quizzes, work
 * log, tags, categories, comments, user media) answered when last asked: `offered`, `missing` (404, 403,
 * 405 or 501: the site has no such module), `sign_in` (401: offered to its members only) or `unknown`
 * (never asked, or no answer).
 *
 * A guide that fails is the guide's failure: `sync_queue` learns when it failed and when it is due again
 * (`next_attempt_at`; NULL after its last allowed attempt: it waits for Retry or a change on the site).
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE site_modules (
      site TEXT NOT NULL,
      module TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('offered', 'missing', 'sign_in', 'unknown')),
      status INTEGER,
      checked_at INTEGER NOT NULL,
      PRIMARY KEY (site, module)
    ) STRICT;

    ALTER TABLE sync_queue ADD COLUMN failed_at INTEGER;
    ALTER TABLE sync_queue ADD COLUMN next_attempt_at INTEGER;
    ALTER TABLE sync_queue ADD COLUMN resource TEXT;
  `);
}
