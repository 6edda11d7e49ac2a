import type { SchemaModule } from './types.ts';

export const FIELD_TYPES = [
  'Text Input',
  'Text Area',
  'Numeric Input',
  'Checkbox',
  'Radios',
  'Select',
  'Image',
  'Video',
  'Document',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const BULLETS = [
  'black',
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'light_blue',
  'violet',
  'icon_note',
  'icon_caution',
  'icon_reminder',
] as const;
export type Bullet = (typeof BULLETS)[number];

export const WORK_STATUSES = ['started', 'paused', 'suspended', 'complete', 'cancelled'] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];

export const MEDIA_TYPES = ['GuideImage', 'GuideVideoObject', 'GuideEmbedObject', 'Document'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
const json = (column: string) => `CHECK (json_valid(${column}))`;

/**
 * Guides (stored per revision), their steps, lines and media, categories, tags, step forms, the work log,
 * quizzes and courses, user media, favorites, completions and comments. Users come from the core module.
 * Revision ids of guides, steps and forms are table-wide sequences, so an id names one version anywhere.
 */
export const contentSchema: SchemaModule = {
  name: 'content',
  up(db) {
    db.exec(`
      CREATE TABLE images (
        imageid INTEGER PRIMARY KEY,
        guid TEXT NOT NULL UNIQUE,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        mime TEXT NOT NULL,
        spec TEXT ${json('spec')},   -- a generated picture, drawn on request (media/picture.ts)
        bytes BLOB,                  -- an uploaded file
        ownerid INTEGER REFERENCES users(userid) ON DELETE SET NULL,
        srcid INTEGER,
        markup TEXT,
        exif TEXT NOT NULL DEFAULT '{}' ${json('exif')},
        created INTEGER NOT NULL,
        CHECK ((spec IS NULL) <> (bytes IS NULL))
      ) STRICT;

      CREATE TABLE videos (
        videoid INTEGER PRIMARY KEY,
        guid TEXT NOT NULL UNIQUE,
        filename TEXT NOT NULL,
        duration_ms INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        imageid INTEGER REFERENCES images(imageid),
        meta TEXT NOT NULL ${json('meta')},  -- reference 2.11 "meta", fixed when the video is stored
        ownerid INTEGER REFERENCES users(userid) ON DELETE SET NULL,
        created INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE video_encodings (
        videoid INTEGER NOT NULL REFERENCES videos(videoid) ON DELETE CASCADE,
        name TEXT NOT NULL,
        codecs TEXT NOT NULL,
        format TEXT NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        mime TEXT NOT NULL,
        max_video_bitrate INTEGER,
        size INTEGER NOT NULL,
        md5 TEXT NOT NULL,
        bytes BLOB NOT NULL,
        PRIMARY KEY (videoid, name)
      ) STRICT;

      CREATE TABLE documents (
        documentid INTEGER PRIMARY KEY,
        guid TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL,
        filename TEXT NOT NULL,
        mime TEXT NOT NULL,
        bytes BLOB NOT NULL,
        ownerid INTEGER REFERENCES users(userid) ON DELETE SET NULL,
        created INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE categories (
        wikiid INTEGER PRIMARY KEY,
        title TEXT NOT NULL UNIQUE COLLATE NOCASE,
        display_title TEXT NOT NULL,
        parentid INTEGER REFERENCES categories(wikiid),
        description TEXT NOT NULL DEFAULT '',
        contents_raw TEXT NOT NULL DEFAULT '',
        contents_rendered TEXT NOT NULL DEFAULT '',
        imageid INTEGER REFERENCES images(imageid),
        revisionid INTEGER NOT NULL,
        stub INTEGER NOT NULL DEFAULT 0 CHECK (stub IN (0, 1)),
        modified_date INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX categories_parent ON categories(parentid);

      CREATE TABLE guides (
        guideid INTEGER PRIMARY KEY,
        revisionid INTEGER NOT NULL,  -- the current revision
        userid INTEGER NOT NULL REFERENCES users(userid),
        locale TEXT NOT NULL DEFAULT 'en',
        created_date INTEGER NOT NULL,
        published_date INTEGER
      ) STRICT;

      CREATE TABLE guide_revisions (
        revisionid INTEGER PRIMARY KEY,
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE,
        modified_date REAL NOT NULL,
        editorid INTEGER,
        title TEXT NOT NULL,
        subject TEXT NOT NULL DEFAULT '',
        category TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('replacement', 'installation', 'repair', 'disassembly', 'teardown',
          'technique', 'maintenance')),
        summary TEXT NOT NULL DEFAULT '',
        difficulty TEXT NOT NULL CHECK (difficulty IN ('Very easy', 'Easy', 'Moderate', 'Difficult', 'Very difficult')),
        time_required TEXT NOT NULL DEFAULT '',
        time_required_min INTEGER NOT NULL DEFAULT 0,
        time_required_max INTEGER NOT NULL DEFAULT 0,
        introduction_raw TEXT NOT NULL DEFAULT '',
        introduction_rendered TEXT NOT NULL DEFAULT '',
        conclusion_raw TEXT NOT NULL DEFAULT '',
        conclusion_rendered TEXT NOT NULL DEFAULT '',
        public INTEGER NOT NULL CHECK (public IN (0, 1)),
        imageid INTEGER REFERENCES images(imageid),
        flags TEXT NOT NULL DEFAULT '[]' ${json('flags')},
        parts TEXT NOT NULL DEFAULT '[]' ${json('parts')},
        tools TEXT NOT NULL DEFAULT '[]' ${json('tools')},
        prerequisites TEXT NOT NULL DEFAULT '[]' ${json('prerequisites')},  -- guideids
        documents TEXT NOT NULL DEFAULT '[]' ${json('documents')}           -- documentids
      ) STRICT;
      CREATE INDEX guide_revisions_guide ON guide_revisions(guideid);

      CREATE TABLE steps (
        stepid INTEGER PRIMARY KEY,
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX steps_guide ON steps(guideid);

      CREATE TABLE step_revisions (
        step_revisionid INTEGER PRIMARY KEY,
        stepid INTEGER NOT NULL REFERENCES steps(stepid) ON DELETE CASCADE,
        title TEXT NOT NULL DEFAULT '',
        media_type TEXT NOT NULL CHECK (media_type IN ('image', 'video', 'embed')),
        media TEXT NOT NULL ${json('media')}  -- {imageids} | {videoid} | {html, url?}
      ) STRICT;
      CREATE INDEX step_revisions_step ON step_revisions(stepid);

      CREATE TABLE guide_revision_steps (
        revisionid INTEGER NOT NULL REFERENCES guide_revisions(revisionid) ON DELETE CASCADE,
        orderby INTEGER NOT NULL,
        step_revisionid INTEGER NOT NULL REFERENCES step_revisions(step_revisionid) ON DELETE CASCADE,
        PRIMARY KEY (revisionid, orderby)
      ) STRICT;
      CREATE INDEX guide_revision_steps_step ON guide_revision_steps(step_revisionid);

      CREATE TABLE step_lines (
        step_revisionid INTEGER NOT NULL REFERENCES step_revisions(step_revisionid) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        lineid INTEGER,
        bullet TEXT NOT NULL CHECK (bullet IN (${list(BULLETS)})),
        level INTEGER NOT NULL CHECK (level BETWEEN 0 AND 3),
        text_raw TEXT NOT NULL,
        text_rendered TEXT NOT NULL,
        PRIMARY KEY (step_revisionid, idx)
      ) STRICT;

      CREATE TABLE tags (
        tagid INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE
      ) STRICT;

      CREATE TABLE guide_tags (
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE,
        tagid INTEGER NOT NULL REFERENCES tags(tagid),
        PRIMARY KEY (guideid, tagid)
      ) STRICT;

      CREATE TABLE category_tags (
        wikiid INTEGER NOT NULL REFERENCES categories(wikiid) ON DELETE CASCADE,
        tagid INTEGER NOT NULL REFERENCES tags(tagid),
        PRIMARY KEY (wikiid, tagid)
      ) STRICT;

      -- A form belongs to a step; every save is a new form revision whose fields keep their field_guid.
      CREATE TABLE step_forms (
        form_revisionid INTEGER PRIMARY KEY,
        stepid INTEGER NOT NULL REFERENCES steps(stepid) ON DELETE CASCADE,
        guideid INTEGER NOT NULL,
        userid INTEGER,
        created INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX step_forms_step ON step_forms(stepid, form_revisionid);
      CREATE INDEX step_forms_guide ON step_forms(guideid);

      CREATE TABLE form_fields (
        field_revisionid INTEGER PRIMARY KEY,
        form_revisionid INTEGER NOT NULL REFERENCES step_forms(form_revisionid) ON DELETE CASCADE,
        field_guid TEXT NOT NULL,
        orderby INTEGER NOT NULL,
        field_type TEXT NOT NULL CHECK (field_type IN (${list(FIELD_TYPES)})),
        label TEXT NOT NULL,
        placeholder TEXT NOT NULL DEFAULT '',
        textarea TEXT NOT NULL DEFAULT '',
        options TEXT NOT NULL DEFAULT '[]' ${json('options')},
        UNIQUE (form_revisionid, field_guid)
      ) STRICT;
      CREATE INDEX form_fields_form ON form_fields(form_revisionid, orderby);

      -- No foreign key to guides: a technician's record outlives the guide it was done from.
      CREATE TABLE work_log (
        entryid INTEGER PRIMARY KEY,
        guideid INTEGER NOT NULL,
        userid INTEGER NOT NULL REFERENCES users(userid),
        workorderid TEXT NOT NULL,
        starttime INTEGER NOT NULL,
        endtime INTEGER,
        status TEXT NOT NULL CHECK (status IN (${list(WORK_STATUSES)})),
        revisionid INTEGER NOT NULL,
        active_stepid INTEGER,
        paused_stepid INTEGER,     -- the step to make active again on resume/assume
        paused_at INTEGER,         -- when the running pause or suspension began
        pause_duration INTEGER NOT NULL DEFAULT 0,
        max_form_revisionid INTEGER,
        guide_revisionid INTEGER NOT NULL,
        cancelled INTEGER NOT NULL DEFAULT 0 CHECK (cancelled IN (0, 1)),
        duration INTEGER NOT NULL DEFAULT 0,
        timingid INTEGER
      ) STRICT;
      CREATE INDEX work_log_guide ON work_log(guideid, status);
      CREATE INDEX work_log_user ON work_log(userid);

      CREATE TABLE work_log_data (
        entryid INTEGER NOT NULL REFERENCES work_log(entryid) ON DELETE CASCADE,
        field_guid TEXT NOT NULL,
        field_revisionid INTEGER NOT NULL,
        stepid INTEGER NOT NULL,
        label TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (entryid, field_guid)
      ) STRICT;

      CREATE TABLE work_log_timings (
        timingid INTEGER PRIMARY KEY,
        entryid INTEGER NOT NULL REFERENCES work_log(entryid) ON DELETE CASCADE,
        stepid INTEGER,
        time INTEGER NOT NULL,
        lasttimingid INTEGER
      ) STRICT;
      CREATE INDEX work_log_timings_entry ON work_log_timings(entryid);

      CREATE TABLE quizzes (
        quizid INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        passing_score INTEGER NOT NULL CHECK (passing_score BETWEEN 0 AND 100),
        current_revisionid INTEGER,
        userid INTEGER REFERENCES users(userid) ON DELETE SET NULL,
        created INTEGER NOT NULL,
        modified INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE quiz_revisions (
        quizRevisionid INTEGER PRIMARY KEY,
        quizid INTEGER NOT NULL REFERENCES quizzes(quizid) ON DELETE CASCADE,
        survey TEXT NOT NULL ${json('survey')},
        created INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE quiz_associations (
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE,
        quizid INTEGER NOT NULL REFERENCES quizzes(quizid) ON DELETE CASCADE,
        created INTEGER NOT NULL,
        PRIMARY KEY (guideid, quizid)
      ) STRICT;

      CREATE TABLE courses (
        courseid INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT ''
      ) STRICT;

      CREATE TABLE course_stages (
        course_stageid INTEGER PRIMARY KEY,
        courseid INTEGER NOT NULL REFERENCES courses(courseid) ON DELETE CASCADE,
        title TEXT NOT NULL,
        orderby INTEGER NOT NULL,
        passing_score INTEGER CHECK (passing_score BETWEEN 0 AND 100)  -- null: each quiz's own
      ) STRICT;

      CREATE TABLE course_stage_quizzes (
        course_stageid INTEGER NOT NULL REFERENCES course_stages(course_stageid) ON DELETE CASCADE,
        quizid INTEGER NOT NULL REFERENCES quizzes(quizid) ON DELETE CASCADE,
        PRIMARY KEY (course_stageid, quizid)
      ) STRICT;

      CREATE TABLE course_assignments (
        course_assignmentid INTEGER PRIMARY KEY,
        courseid INTEGER NOT NULL REFERENCES courses(courseid) ON DELETE CASCADE,
        userid INTEGER REFERENCES users(userid) ON DELETE CASCADE,
        teamid INTEGER REFERENCES teams(teamid) ON DELETE CASCADE,
        assigned_date INTEGER NOT NULL,
        due_date INTEGER,
        CHECK ((userid IS NULL) <> (teamid IS NULL))
      ) STRICT;

      CREATE TABLE quiz_attempts (
        attemptid INTEGER PRIMARY KEY,
        userid INTEGER NOT NULL REFERENCES users(userid),
        quizid INTEGER NOT NULL REFERENCES quizzes(quizid) ON DELETE CASCADE,
        quizRevisionid INTEGER NOT NULL,
        course_stageid INTEGER,
        answers TEXT NOT NULL ${json('answers')},
        score INTEGER NOT NULL,
        passed INTEGER NOT NULL CHECK (passed IN (0, 1)),
        started INTEGER NOT NULL,
        finished INTEGER NOT NULL,
        client_uuid TEXT UNIQUE
      ) STRICT;

      CREATE TABLE user_media (
        itemid INTEGER PRIMARY KEY,
        userid INTEGER NOT NULL REFERENCES users(userid) ON DELETE CASCADE,
        type TEXT NOT NULL CHECK (type IN (${list(MEDIA_TYPES)})),
        name TEXT NOT NULL,
        imageid INTEGER REFERENCES images(imageid),
        videoid INTEGER REFERENCES videos(videoid),
        documentid INTEGER REFERENCES documents(documentid),
        embed TEXT ${json('embed')},
        polls INTEGER NOT NULL DEFAULT 0,  -- a video reports ready from its second look on
        created INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX user_media_user ON user_media(userid, itemid);

      CREATE TABLE favorites (
        userid INTEGER NOT NULL REFERENCES users(userid) ON DELETE CASCADE,
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE,
        created INTEGER NOT NULL,
        PRIMARY KEY (userid, guideid)
      ) STRICT;

      CREATE TABLE completions (
        userid INTEGER NOT NULL REFERENCES users(userid) ON DELETE CASCADE,
        guideid INTEGER NOT NULL REFERENCES guides(guideid) ON DELETE CASCADE,
        created INTEGER NOT NULL,
        PRIMARY KEY (userid, guideid)
      ) STRICT;

      CREATE TABLE comments (
        commentid INTEGER PRIMARY KEY,
        context TEXT NOT NULL CHECK (context IN ('guide', 'step', 'wiki', 'post', 'info', 'story')),
        contextid INTEGER NOT NULL,
        parentid INTEGER REFERENCES comments(commentid) ON DELETE CASCADE,
        userid INTEGER NOT NULL REFERENCES users(userid),
        locale TEXT NOT NULL DEFAULT 'en',
        text_raw TEXT NOT NULL,
        text_rendered TEXT NOT NULL,
        date INTEGER NOT NULL,
        modified_date INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX comments_context ON comments(context, contextid);
    `);
  },
};
