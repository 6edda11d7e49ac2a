import type { AppApi } from '../../contract.ts';
import type { ApiTransport } from '../api/transport.ts';
import { ok } from '../result.ts';
import type { WorkLog } from './worklog.ts';

type WorkLogMethods =
  | 'startSession'
  | 'transitionSession'
  | 'saveStepData'
  | 'attachFile'
  | 'listSessions'
  | 'getSession'
  | 'getAttachment'
  | 'listSuspended'
  | 'openSession'
  | 'assumeSession'
  | 'listConflicts'
  | 'settleConflict';

/** The App API of work sessions; `transport` is the signed-in one (it throws when nobody is). */
export function worklogMethods(worklog: WorkLog, transport: () => ApiTransport): Pick<AppApi, WorkLogMethods> {
  const { sessions, site, conflicts } = worklog;
  return {
    startSession: async (input) => ok(sessions.start(input)),
    transitionSession: async ({ sessionId, transition, signOff }) =>
      ok(sessions.transition(sessionId, transition, signOff)),
    saveStepData: async (input) => ok(sessions.saveStepData(input)),
    attachFile: async (input) => ok(sessions.attach(input)),
    listSessions: async (filter) => ok(sessions.list(filter)),
    getSession: async (sessionId) => ok(sessions.view(sessionId)),
    getAttachment: async (attachmentId) => ok(worklog.attachment(attachmentId)),
    listSuspended: async (guideid) => ok(await site.suspended(guideid, transport())),
    openSession: async (entryid) => ok(await site.open(entryid, transport())),
    assumeSession: async (entryid) => ok(await site.assume(entryid, transport())),
    listConflicts: async () => ok(conflicts.open()),
    settleConflict: async ({ conflictId, keep }) => ok(conflicts.settle(conflictId, keep)),
  };
}
