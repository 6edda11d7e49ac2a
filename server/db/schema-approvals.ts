import type { SchemaModule } from './types.ts';

/**
 * Approval processes (reference 2.5, 2.6): stages, the documents a process governs, and its requests with
 * their signatures. Guide and wiki ids carry no foreign key: approvals are looked up by document, and a
 * request's history outlives a deleted guide.
 */
export const approvalsSchema: SchemaModule = {
  name: 'approvals',
  up(db) {
    db.exec(`
      CREATE TABLE approval_processes (
        approval_processid INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        allow_repeated_signatures INTEGER NOT NULL DEFAULT 0 CHECK (allow_repeated_signatures IN (0, 1)),
        status TEXT NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
        is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
        webhooks_enabled INTEGER CHECK (webhooks_enabled IN (0, 1)),
        workspaceid INTEGER,  -- wikiid of the workspace the process belongs to; null: workspace-less
        created INTEGER NOT NULL
      ) STRICT;
      -- At most one default process for new guides.
      CREATE UNIQUE INDEX approval_processes_default ON approval_processes(is_default) WHERE is_default = 1;
      CREATE INDEX approval_processes_workspace ON approval_processes(workspaceid);

      CREATE TABLE approval_stages (
        approval_process_stageid INTEGER PRIMARY KEY,
        approval_processid INTEGER NOT NULL REFERENCES approval_processes(approval_processid) ON DELETE CASCADE,
        orderby INTEGER NOT NULL,
        userid INTEGER REFERENCES users(userid),
        teamid INTEGER REFERENCES teams(teamid),
        num_required INTEGER CHECK (num_required >= 1),
        CHECK ((userid IS NULL) <> (teamid IS NULL)),
        CHECK (teamid IS NULL OR num_required IS NOT NULL),
        UNIQUE (approval_processid, orderby)
      ) STRICT;

      CREATE TABLE approval_documents (
        doc_type TEXT NOT NULL CHECK (doc_type IN ('guide', 'wiki')),
        docid INTEGER NOT NULL,
        langid TEXT NOT NULL DEFAULT 'en',
        approval_processid INTEGER NOT NULL REFERENCES approval_processes(approval_processid) ON DELETE CASCADE,
        PRIMARY KEY (doc_type, docid, langid)
      ) STRICT;
      CREATE INDEX approval_documents_process ON approval_documents(approval_processid);

      CREATE TABLE approval_requests (
        approval_requestid INTEGER PRIMARY KEY,
        approval_processid INTEGER NOT NULL REFERENCES approval_processes(approval_processid) ON DELETE CASCADE,
        guideid INTEGER NOT NULL,
        langid TEXT NOT NULL DEFAULT 'en',
        revisionid INTEGER NOT NULL,
        userid INTEGER NOT NULL REFERENCES users(userid),
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
        notes TEXT NOT NULL DEFAULT '',
        init_date INTEGER NOT NULL,
        end_date INTEGER
      ) STRICT;
      CREATE INDEX approval_requests_process ON approval_requests(approval_processid, status);

      CREATE TABLE approval_signatures (
        approval_request_stage_signatureid INTEGER PRIMARY KEY,
        approval_requestid INTEGER NOT NULL REFERENCES approval_requests(approval_requestid) ON DELETE CASCADE,
        approval_process_stageid INTEGER NOT NULL REFERENCES approval_stages(approval_process_stageid),
        userid INTEGER NOT NULL REFERENCES users(userid),
        status TEXT NOT NULL CHECK (status IN ('approve', 'reject')),
        sign_date INTEGER NOT NULL,
        notes TEXT NOT NULL DEFAULT ''
      ) STRICT;
      CREATE INDEX approval_signatures_request ON approval_signatures(approval_requestid);
    `);
  },
};
