import type { ApiTransport } from './transport.ts';
import { uploadWire, workLogEntryWire, workLogListWire } from './wire/work-log.ts';
import type { WorkTransition } from '../../contract.ts';

// The work-log calls the outbox replays (reference 4.10, DESIGN.md §7).

export const startEntry = (t: ApiTransport, body: { guideid: number; workorderid: string; stepid?: number; timestamp: number }) =>
  t.request('POST', '/work_log', { json: body, schema: workLogEntryWire });

export const transitionEntry = (t: ApiTransport, entryid: number, transition: WorkTransition, revisionid: number | null, timestamp: number) =>
  t.request('POST', `/work_log/${entryid}/${transition}`, {
    query: { revisionid: revisionid ?? undefined },
    json: { timestamp },
    schema: workLogEntryWire,
  });

export const putStepData = (
  t: ApiTransport,
  entryid: number,
  revisionid: number | null,
  body: { fields: Record<string, string | null>; stepid?: number; timestamp: number },
) => t.request('PUT', `/work_log/${entryid}/stepData`, { query: { revisionid: revisionid ?? undefined }, json: body, schema: workLogEntryWire });

export const getEntry = (t: ApiTransport, entryid: number) => t.request('GET', `/work_log/${entryid}`, { schema: workLogEntryWire });

/** The entries of a guide and work order for one user, newest first: how a lost `start` is found. */
export const findEntries = (t: ApiTransport, filter: { guideid: number; workorderid: string; userid: number }) =>
  t.request('GET', '/work_log', { query: { ...filter, order: 'DESC', limit: 200 }, schema: workLogListWire });

export const suspendedEntries = (t: ApiTransport, guideid: number) =>
  t.request('GET', `/work_log/${guideid}/suspended`, { schema: workLogListWire });

export const uploadMedia = (t: ApiTransport, name: string, bytes: Uint8Array<ArrayBuffer>) =>
  t.request('POST', '/user/media/uploads', { query: { file: name }, bytes, schema: uploadWire });
