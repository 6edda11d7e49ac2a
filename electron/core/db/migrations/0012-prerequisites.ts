import type Database from 'better-sqlite3';

/**
 * Prerequisite guides and the two dialects of API 2.0 (issue 25).
 * - `guide_prerequisites`: which guides a stored guide needs first, in order. A prerequisite is kept whole
 *   whatever the offline scope, and a guide is stored again when one of its prerequisites changes (its
 *   steps open the guide's own).
 * - `step_forms` keyed by guide and form revision: a prerequisite's step forms belong to its steps in
 *   every guide that needs it (the prerequisite's own rows and each such guide's), not to one of them.
 * - `site_modules.via`: which endpoint a site answered for a module, where the dialects differ
 *   (`search` or `suggest`; uploads on `uploads` or `images`); null: the reference's.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE guide_prerequisites (
      guideid INTEGER NOT NULL,
      position INTEGER NOT NULL,
      prerequisite INTEGER NOT NULL,
      PRIMARY KEY (guideid, position)
    ) STRICT;
    CREATE INDEX guide_prerequisites_of ON guide_prerequisites(prerequisite);

    CREATE TABLE step_forms_by_guide (
      form_revisionid INTEGER NOT NULL,
      guideid INTEGER NOT NULL,
      stepid INTEGER NOT NULL,
      form TEXT NOT NULL,
      PRIMARY KEY (guideid, form_revisionid)
    ) STRICT;
    INSERT INTO step_forms_by_guide (form_revisionid, guideid, stepid, form)
      SELECT form_revisionid, guideid, stepid, form FROM step_forms;
    DROP TABLE step_forms;
    ALTER TABLE step_forms_by_guide RENAME TO step_forms;
    CREATE INDEX step_forms_step ON step_forms(guideid, stepid);

    ALTER TABLE site_modules ADD COLUMN via TEXT;
  `);
}
