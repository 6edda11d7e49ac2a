import type Database from 'better-sqlite3';

/**
 * When a session last took its state from the site, worked on from another computer (worklog/replay/adopt.ts
 * `followOwnEntry`): unix seconds, null once its technician changes its state here. Closing and opening
 * Fieldguide asked whether the time it ran while closed was work, of a session taken back and worked on
 * elsewhere (worklog/unwatched.ts): such a session's clock is the site's, not this computer's to ask about.
 */
export function up(db: Database.Database): void {
  db.exec('ALTER TABLE work_sessions ADD COLUMN state_from_site INTEGER;');
}
