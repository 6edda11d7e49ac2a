import { z } from 'zod';
import type { WorklogApi } from '../../contract.ts';
import { SIGNATURE_MAX_CHARS, WORK_ORDER_MAX_CHARS } from '../../shared/limits.ts';
import { TRANSITIONS } from '../../shared/worklog.ts';
import type { ApiTransport } from '../api/transport.ts';
import { id, required } from '../method-inputs.ts';
import { defineMethods } from '../methods.ts';
import type { WorkLog } from './worklog.ts';

/** Finish's sign-off (issue 28): a typed name or a drawing, bounded. */
const signOffInput = z.object({
  how: z.enum(['typed', 'drawn']),
  typed: z.string().max(200).optional(),
  drawingPng: z
    .string()
    .max(SIGNATURE_MAX_CHARS)
    .regex(/^[A-Za-z0-9+/]+=*$/, 'a PNG in base64')
    .optional(),
});

export interface WorklogMethodDeps {
  worklog: WorkLog;
  /** The signed-in technician's transport (it throws when nobody is). */
  transport: () => ApiTransport;
}

const sessionId = z.string().uuid('not a session id');
const fieldGuid = z.string().min(1).max(200);

/** The App API of work sessions: every one is the signed-in technician's, and what changes work is theirs. */
export const worklogMethods = defineMethods<keyof WorklogApi, WorklogMethodDeps>({
  startSession: {
    input: z.tuple([
      z.object({ guideid: id, workorderid: required('Work order').max(WORK_ORDER_MAX_CHARS), stepid: id.optional() }),
    ]),
    work: true,
    technician: true,
    run: ({ worklog }, input) => worklog.sessions.start(input),
  },
  transitionSession: {
    input: z.tuple([z.object({ sessionId, transition: z.enum(TRANSITIONS), signOff: signOffInput.optional() })]),
    work: true,
    technician: true,
    run: ({ worklog }, { sessionId, transition, signOff }) =>
      worklog.sessions.transition(sessionId, transition, signOff),
  },
  saveStepData: {
    input: z.tuple([
      z.object({
        sessionId,
        stepid: id,
        values: z
          .array(z.object({ fieldGuid, value: z.string().max(100_000).nullable() }))
          .min(1)
          .max(200),
      }),
    ]),
    work: true,
    technician: true,
    run: ({ worklog }, input) => worklog.sessions.saveStepData(input),
  },
  attachFile: {
    input: z.tuple([
      z.object({
        sessionId,
        stepid: id,
        fieldGuid,
        name: required('File name').max(255),
        mime: z.string().min(1).max(200),
        // 200 MB of bytes is about 267 MB of base64.
        dataBase64: z
          .string()
          .min(1)
          // Checked as base64 a piece at a time by keepFile (attachments.ts decodeFile), not by one regex.
          .max(280 * 1024 * 1024),
      }),
    ]),
    work: true,
    technician: true,
    file: true,
    prepare: ({ worklog }, input) => worklog.sessions.keepFile(input),
    run: ({ worklog }, input) => worklog.sessions.attach(input),
  },
  listSessions: {
    input: z.tuple([z.object({ guideid: id.optional(), ended: z.number().int().nonnegative().optional() })]),
    technician: true,
    run: ({ worklog }, filter) => worklog.sessions.list(filter),
  },
  getSession: {
    input: z.tuple([sessionId]),
    technician: true,
    run: ({ worklog }, sessionId) => worklog.sessions.view(sessionId),
  },
  getAttachment: {
    input: z.tuple([z.string().uuid('not an attachment id')]),
    technician: true,
    run: ({ worklog }, attachmentId) => worklog.attachment(attachmentId),
  },
  checkAttachments: {
    input: z.tuple([sessionId]),
    technician: true,
    run: ({ worklog }, id) => worklog.unreadable(id),
  },
  othersOpen: {
    input: z.tuple([z.object({ guideid: id, workorderid: required('Work order').max(WORK_ORDER_MAX_CHARS) })]),
    technician: true,
    run: ({ worklog }, input) => worklog.sessions.othersOpen(input),
  },
  answerRanUnwatched: {
    input: z.tuple([z.object({ sessionId, work: z.boolean() })]),
    work: true,
    technician: true,
    run: ({ worklog }, { sessionId, work }) => worklog.sessions.answerRanUnwatched(sessionId, work),
  },
  listSuspended: {
    input: z.tuple([id]),
    technician: true,
    run: ({ worklog, transport }, guideid) => worklog.site.suspended(guideid, transport()),
  },
  listHandedOver: {
    input: z.tuple([]),
    technician: true,
    run: ({ worklog, transport }) => worklog.site.handedOver(transport()),
  },
  openSession: {
    input: z.tuple([id]),
    technician: true,
    run: ({ worklog, transport }, entryid) => worklog.site.open(entryid, transport()),
  },
  assumeSession: {
    input: z.tuple([id]),
    technician: true,
    run: ({ worklog, transport }, entryid) => worklog.site.assume(entryid, transport()),
  },
  listConflicts: {
    input: z.tuple([]),
    technician: true,
    run: ({ worklog }) => worklog.conflicts.open(),
  },
  settleConflict: {
    input: z.tuple([z.object({ conflictId: id, keep: z.enum(['mine', 'theirs']) })]),
    work: true,
    technician: true,
    run: ({ worklog }, { conflictId, keep }) => worklog.conflicts.settle(conflictId, keep),
  },
});
