import type { Db } from '../db/types.ts';
import type { Order } from '../http/paging.ts';

export interface ProcessRow {
  approval_processid: number;
  name: string;
  allow_repeated_signatures: number;
  status: string;
  is_default: number;
  webhooks_enabled: number | null;
  workspaceid: number | null;
  created: number;
}

export interface StageRow {
  approval_process_stageid: number;
  approval_processid: number;
  orderby: number;
  userid: number | null;
  teamid: number | null;
  num_required: number | null;
}

export interface RequestRow {
  approval_requestid: number;
  approval_processid: number;
  guideid: number;
  langid: string;
  revisionid: number;
  userid: number;
  status: string;
  notes: string;
  init_date: number;
  end_date: number | null;
}

export interface SignatureRow {
  approval_request_stage_signatureid: number;
  approval_requestid: number;
  approval_process_stageid: number;
  userid: number;
  status: 'approve' | 'reject';
  sign_date: number;
  notes: string;
}

export function getProcess(db: Db, id: number): ProcessRow | undefined {
  return db.prepare('SELECT * FROM approval_processes WHERE approval_processid = ?').get(id) as ProcessRow | undefined;
}

export interface ProcessQuery {
  order: Order;
  offset: number;
  limit: number;
  /** Part of the name, any case. */
  nameContains?: string;
  /** `undefined`: any workspace; `null`: workspace-less processes only. */
  workspaceid?: number | null;
}

export function findProcesses(db: Db, query: ProcessQuery): { rows: ProcessRow[]; total: number } {
  const where = `WHERE (@name IS NULL OR instr(lower(name), lower(@name)) > 0)
    AND (@anyWorkspace = 1 OR workspaceid IS @workspaceid)`;
  const params = {
    name: query.nameContains ?? null,
    anyWorkspace: query.workspaceid === undefined ? 1 : 0,
    workspaceid: query.workspaceid ?? null,
  };
  const { total } = db.prepare(`SELECT COUNT(*) AS total FROM approval_processes ${where}`).get(params) as {
    total: number;
  };
  const rows = db
    .prepare(
      `SELECT * FROM approval_processes ${where} ` +
        `ORDER BY approval_processid ${query.order} LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params, limit: query.limit, offset: query.offset }) as ProcessRow[];
  return { rows, total };
}

export function stagesOf(db: Db, processid: number): StageRow[] {
  return db
    .prepare('SELECT * FROM approval_stages WHERE approval_processid = ? ORDER BY orderby')
    .all(processid) as StageRow[];
}

export function documentsOf(db: Db, processid: number, docType: 'guide' | 'wiki'): { docid: number; langid: string }[] {
  return db
    .prepare(
      'SELECT docid, langid FROM approval_documents ' +
        'WHERE approval_processid = ? AND doc_type = ? ORDER BY docid, langid',
    )
    .all(processid, docType) as { docid: number; langid: string }[];
}

export function pendingRequests(db: Db, processid: number): RequestRow[] {
  return db
    .prepare(
      "SELECT * FROM approval_requests WHERE approval_processid = ? AND status = 'pending' ORDER BY approval_requestid",
    )
    .all(processid) as RequestRow[];
}

export function signaturesOf(db: Db, requestid: number): SignatureRow[] {
  return db
    .prepare(
      'SELECT * FROM approval_signatures WHERE approval_requestid = ? ORDER BY approval_request_stage_signatureid',
    )
    .all(requestid) as SignatureRow[];
}

export interface NewStage {
  userid?: number | undefined;
  teamid?: number | undefined;
  num_required?: number | undefined;
}

export interface NewProcess {
  name: string;
  stages: readonly NewStage[];
  allow_repeated_signatures: boolean;
  is_default: boolean;
  webhooks_enabled: boolean | null;
  workspaceid: number | null;
}

export function insertProcess(db: Db, process: NewProcess, now: number): number {
  // A new default replaces the old one; guides that already have a process keep it.
  if (process.is_default) db.prepare('UPDATE approval_processes SET is_default = 0 WHERE is_default = 1').run();
  const id = Number(
    db
      .prepare(
        `INSERT INTO approval_processes (name, allow_repeated_signatures, is_default, webhooks_enabled, workspaceid,
           created)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        process.name,
        process.allow_repeated_signatures ? 1 : 0,
        process.is_default ? 1 : 0,
        process.webhooks_enabled === null ? null : process.webhooks_enabled ? 1 : 0,
        process.workspaceid,
        now,
      ).lastInsertRowid,
  );
  const stage = db.prepare(
    'INSERT INTO approval_stages (approval_processid, orderby, userid, teamid, num_required) VALUES (?, ?, ?, ?, ?)',
  );
  process.stages.forEach((each, index) => {
    stage.run(
      id,
      index,
      each.userid ?? null,
      each.teamid ?? null,
      each.teamid === undefined ? null : (each.num_required ?? null),
    );
  });
  return id;
}

/** The process new guides get (`is_default`), if any: for the guide-creating route to assign. */
export function defaultProcessId(db: Db): number | null {
  const row = db.prepare('SELECT approval_processid FROM approval_processes WHERE is_default = 1').get() as
    { approval_processid: number } | undefined;
  return row?.approval_processid ?? null;
}

/** Puts a document under a process (replacing the one it had). */
export function assignDocument(
  db: Db,
  processid: number,
  docType: 'guide' | 'wiki',
  docid: number,
  langid = 'en',
): void {
  db.prepare(
    'INSERT OR REPLACE INTO approval_documents (doc_type, docid, langid, approval_processid) VALUES (?, ?, ?, ?)',
  ).run(docType, docid, langid, processid);
}

/** Opens a request for a guide revision under its process (seeds and tests; signing is not served yet). */
export function insertRequest(
  db: Db,
  request: { processid: number; guideid: number; revisionid: number; userid: number; langid?: string; notes?: string },
  now: number,
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO approval_requests (approval_processid, guideid, langid, revisionid, userid, notes, init_date)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        request.processid,
        request.guideid,
        request.langid ?? 'en',
        request.revisionid,
        request.userid,
        request.notes ?? '',
        now,
      ).lastInsertRowid,
  );
}

export function insertSignature(
  db: Db,
  signature: { requestid: number; stageid: number; userid: number; status: 'approve' | 'reject'; notes?: string },
  now: number,
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO approval_signatures (approval_requestid, approval_process_stageid, userid, status, sign_date,
           notes)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(signature.requestid, signature.stageid, signature.userid, signature.status, now, signature.notes ?? '')
      .lastInsertRowid,
  );
}

export function counts(db: Db, processid: number): { num_guides: number; num_requests: number } {
  return db
    .prepare(
      `SELECT
         (SELECT COUNT(*) FROM approval_documents WHERE approval_processid = @id AND doc_type = 'guide') AS num_guides,
         (SELECT COUNT(*) FROM approval_requests WHERE approval_processid = @id AND status = 'pending')
           AS num_requests`,
    )
    .get({ id: processid }) as { num_guides: number; num_requests: number };
}
