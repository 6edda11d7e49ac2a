import type Database from 'better-sqlite3';

/**
 * The offline library.
 * - `guides`: one row per guide the site lists (summaries are always synced); `stored_revisionid` is the
 *   revision whose whole content is on this computer, if any.
 * - `guide_revisions`: the whole guide (our own GuideDetail JSON) per revision. A revision pinned by an
 *   unfinished work session (`revision_pins`) is kept after a newer one arrives.
 * - `step_forms`, `guide_quizzes`, `quiz_revisions`: what the guide's forms and quizzes need offline.
 * - `guide_search`: FTS5 over title, summary and step text.
 * - `media` / `media_refs`: downloaded files by URL, named by content, and which guides need them.
 * - `sync_queue`: guides whose listing changed but whose content is not stored yet; it survives a crash so
 *   the next sync resumes where it stopped, and the cursor only moves once it is empty.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE guides (
      guideid INTEGER PRIMARY KEY,
      revisionid INTEGER NOT NULL,
      title TEXT NOT NULL,
      category TEXT NOT NULL DEFAULT '',
      subject TEXT NOT NULL DEFAULT '',
      type TEXT NOT NULL DEFAULT '',
      summary TEXT NOT NULL DEFAULT '',
      flags TEXT NOT NULL DEFAULT '[]',
      image TEXT,
      public INTEGER NOT NULL DEFAULT 1,
      modified_date REAL NOT NULL,
      stored_revisionid INTEGER
    ) STRICT;
    CREATE INDEX guides_category ON guides(category);
    CREATE INDEX guides_title ON guides(title COLLATE NOCASE, guideid);

    CREATE TABLE guide_revisions (
      guideid INTEGER NOT NULL,
      revisionid INTEGER NOT NULL,
      detail TEXT NOT NULL,
      stored_at INTEGER NOT NULL,
      PRIMARY KEY (guideid, revisionid)
    ) STRICT;

    CREATE TABLE revision_pins (
      guideid INTEGER NOT NULL,
      revisionid INTEGER NOT NULL,
      reason TEXT NOT NULL,
      PRIMARY KEY (guideid, revisionid, reason)
    ) STRICT;

    CREATE TABLE guide_tags (
      guideid INTEGER NOT NULL,
      tag TEXT NOT NULL COLLATE NOCASE,
      PRIMARY KEY (guideid, tag)
    ) STRICT;
    CREATE INDEX guide_tags_tag ON guide_tags(tag);

    CREATE TABLE step_forms (
      form_revisionid INTEGER PRIMARY KEY,
      guideid INTEGER NOT NULL,
      stepid INTEGER NOT NULL,
      form TEXT NOT NULL
    ) STRICT;
    CREATE INDEX step_forms_guide ON step_forms(guideid);

    CREATE TABLE quiz_revisions (
      quiz_revisionid INTEGER PRIMARY KEY,
      quizid INTEGER NOT NULL,
      title TEXT NOT NULL,
      survey TEXT NOT NULL,
      passing_score REAL
    ) STRICT;

    CREATE TABLE guide_quizzes (
      guideid INTEGER NOT NULL,
      quizid INTEGER NOT NULL,
      quiz_revisionid INTEGER NOT NULL,
      PRIMARY KEY (guideid, quizid)
    ) STRICT;

    CREATE TABLE categories (
      name TEXT PRIMARY KEY,
      parent TEXT,
      position INTEGER NOT NULL
    ) STRICT;

    CREATE VIRTUAL TABLE guide_search USING fts5(
      title, summary, body, tokenize='porter unicode61 remove_diacritics 2'
    );

    CREATE TABLE media (
      url TEXT PRIMARY KEY,
      file TEXT,
      mime TEXT,
      bytes INTEGER,
      status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      last_used INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE INDEX media_status ON media(status);
    CREATE INDEX media_lru ON media(last_used) WHERE status = 'done';

    CREATE TABLE media_refs (
      guideid INTEGER NOT NULL,
      url TEXT NOT NULL,
      PRIMARY KEY (guideid, url)
    ) STRICT;
    CREATE INDEX media_refs_url ON media_refs(url);

    CREATE TABLE sync_queue (
      guideid INTEGER PRIMARY KEY,
      revisionid INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_error TEXT
    ) STRICT;
  `);
}
