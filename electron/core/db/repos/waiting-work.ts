import type { ValueOnSite } from '../../../contract.ts';

// What a session's rows waiting in the outbox say of its values (sessions-repo.ts `view`): read once a view.

/** A session's step data or upload waiting in the outbox, as stored. */
export type WaitingWork = { kind: string; payload: string; state: string; error: string | null };

/** One part of an outbox row's payload as stored (JSON), unchecked; undefined when it cannot be read. */
function payloadPart(payload: string, key: string): unknown {
  try {
    return (JSON.parse(payload) as Record<string, unknown> | null)?.[key];
  } catch {
    return undefined;
  }
}

/**
 * Fields a step-data action of the session still holds: `waiting` while it is queued, `refused` once
 * it failed. A value in neither that differs from what the site confirmed did not reach the site.
 */
export function queuedFields(rows: WaitingWork[]): Map<string, ValueOnSite> {
  const out = new Map<string, ValueOnSite>();
  for (const row of rows) {
    const fields = row.kind === 'stepData' ? payloadPart(row.payload, 'fields') : undefined;
    if (!Array.isArray(fields)) continue;
    for (const field of fields as { fieldGuid?: unknown }[]) {
      if (typeof field?.fieldGuid !== 'string') continue;
      if (row.state !== 'failed') out.set(field.fieldGuid, 'waiting');
      else if (!out.has(field.fieldGuid)) out.set(field.fieldGuid, 'refused');
    }
  }
  return out;
}

/** The words of the refused step saves that hold each field (the first, when two do), by field guid. */
export function refusedSaves(rows: WaitingWork[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of rows) {
    const fields = row.kind === 'stepData' && row.state === 'failed' ? payloadPart(row.payload, 'fields') : undefined;
    if (!Array.isArray(fields)) continue;
    for (const field of fields as { fieldGuid?: unknown }[])
      if (typeof field?.fieldGuid === 'string' && !out.has(field.fieldGuid))
        out.set(field.fieldGuid, row.error ?? 'The site did not take it.');
  }
  return out;
}

/** The failed uploads' words, by attachment id. */
export function refusedUploads(rows: WaitingWork[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of rows) {
    if (row.kind !== 'upload' || row.state !== 'failed') continue;
    const attachmentId = payloadPart(row.payload, 'attachmentId');
    if (typeof attachmentId === 'string') out.set(attachmentId, row.error ?? 'The site did not take it.');
  }
  return out;
}
