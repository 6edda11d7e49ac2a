import { getGuideRow } from '../guides/repo.ts';
import { imageJson } from '../media/json.ts';
import type { Db } from '../db/types.ts';
import { getTeam, stageTeam } from '../teams/repo.ts';
import { getUser, userJson, type UserJson } from '../users/repo.ts';
import {
  counts,
  documentsOf,
  pendingRequests,
  signaturesOf,
  stagesOf,
  type ProcessRow,
  type RequestRow,
  type StageRow,
} from './repo.ts';

const active = (db: Db, userid: number): boolean => {
  const user = getUser(db, userid);
  return !!user && user.enabled === 1 && user.banned === null;
};

/** A stage can be completed: its user is active, or its team has at least `num_required` active members. */
function stageSatisfiable(db: Db, stage: StageRow): boolean {
  if (stage.userid !== null) return active(db, stage.userid);
  const { n } = db
    .prepare(
      `SELECT COUNT(*) AS n FROM team_members m JOIN users u USING (userid)
       WHERE m.teamid = ? AND u.enabled = 1 AND u.banned IS NULL`,
    )
    .get(stage.teamid) as { n: number };
  return n >= (stage.num_required ?? 1);
}

function stageJson(db: Db, stage: StageRow, origin: string) {
  const base = {
    approval_process_stageid: stage.approval_process_stageid,
    is_satisfiable: stageSatisfiable(db, stage),
  };
  if (stage.userid !== null) return { ...base, user: userJson(db, getUser(db, stage.userid)!, origin) };
  return { ...base, team: stageTeam(db, getTeam(db, stage.teamid!)!), num_required: stage.num_required };
}

/** The process as list, search and candidates answer it (reference 2.5). */
export function processSummary(db: Db, process: ProcessRow, origin: string) {
  const stages = stagesOf(db, process.approval_processid).map((stage) => stageJson(db, stage, origin));
  return {
    approval_processid: process.approval_processid,
    name: process.name,
    allow_repeated_signatures: process.allow_repeated_signatures === 1,
    status: process.status,
    stages,
    is_satisfiable: stages.every((stage) => stage.is_satisfiable),
    is_default: process.is_default === 1,
    ...counts(db, process.approval_processid),
  };
}

/** Detail and create answers: the summary plus webhooks_enabled, the guides it governs and its pending requests. */
export function processDetail(db: Db, process: ProcessRow, origin: string) {
  const summary = processSummary(db, process, origin);
  return {
    ...summary,
    webhooks_enabled: process.webhooks_enabled === null ? null : process.webhooks_enabled === 1,
    guides: documentsOf(db, process.approval_processid, 'guide').map(({ docid, langid }) => ({
      guideid: docid,
      langid,
    })),
    requests: pendingRequests(db, process.approval_processid).map((request) =>
      requestJson(db, request, summary, origin),
    ),
  };
}

/** An approval request (reference 2.6). Its release is the guide revision asked for. */
function requestJson(db: Db, request: RequestRow, process: ReturnType<typeof processSummary>, origin: string) {
  const requester = userOrNull(db, request.userid, origin);
  const guide = getGuideRow(db, request.guideid);
  const signatures = signaturesOf(db, request.approval_requestid);
  const stages = stagesOf(db, request.approval_processid).map((stage) => {
    const own = signatures.filter((signature) => signature.approval_process_stageid === stage.approval_process_stageid);
    const approvals = own.filter((signature) => signature.status === 'approve').length;
    const rejected = own.some((signature) => signature.status === 'reject');
    const approved = !rejected && approvals >= (stage.num_required ?? 1);
    return {
      approval_process_stageid: stage.approval_process_stageid,
      user: stage.userid === null ? null : userOrNull(db, stage.userid, origin),
      status: rejected ? 'rejected' : approved ? 'complete' : 'pending',
      signatures: own.map((signature) => ({
        approval_request_stage_signatureid: signature.approval_request_stage_signatureid,
        user: userOrNull(db, signature.userid, origin),
        status: signature.status,
        sign_date: signature.sign_date,
        notes: signature.notes,
      })),
      approved,
      rejected,
    };
  });
  const href = `/approvals/request/${request.approval_requestid}`;
  return {
    approval_requestid: request.approval_requestid,
    release: {
      releaseid: request.approval_requestid,
      guideid: request.guideid,
      langid: request.langid,
      revisionid: request.revisionid,
      user: requester,
      status: request.status,
      title: guide?.title ?? '',
      init_date: request.init_date,
      release_date: null,
      notes: request.notes,
      type: 'minor',
      href: `/Guide/${request.guideid}/releases`,
      version: null,
    },
    guide: {
      guideid: request.guideid,
      title: guide?.title ?? '',
      langid: request.langid,
      img_src:
        guide?.imageid != null && guide.image_guid !== null
          ? String(imageJson(origin, { imageid: guide.imageid, guid: guide.image_guid }).thumbnail)
          : null,
    },
    process,
    status: request.status,
    stages,
    init_date: request.init_date,
    end_date: request.end_date,
    href,
  };
}

function userOrNull(db: Db, userid: number, origin: string): UserJson | null {
  const row = getUser(db, userid);
  return row ? userJson(db, row, origin) : null;
}
