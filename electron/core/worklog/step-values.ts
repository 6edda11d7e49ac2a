import type { StepFormField } from '../../contract.ts';
import type { Stamp } from '../connection/server-clock.ts';
import { chainKey } from '../db/chains.ts';
import type { Store } from '../db/store.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { StepDataPayload } from './replay/payloads.ts';
import { stepDataAction } from './replay/step-data.ts';
import { dropUnsentFile } from './replay/unsent-files.ts';
import type { KeptFiles } from './kept-files.ts';
import { sessionChain } from './session-chain.ts';

/** A value the technician saved in a step's form (an attached file's: null until uploaded). */
export interface SavedValue {
  field: StepFormField;
  value: string | null;
  attachmentId: string | undefined;
}

/**
 * Records the values in the session and queues them (call it in the transaction that checked them). Step
 * data waiting at the end of the chain for the same step, not tried yet, absorbs a new save (coalescing):
 * one request for a form saved field by field offline.
 */
export function queueStepValues(
  deps: { store: Store; outbox: Pick<Outbox, 'enqueue' | 'amend'>; keptFiles: Pick<KeptFiles, 'consider'> },
  session: { id: string; technician: number },
  stepid: number,
  values: SavedValue[],
  at: { actedAt: number; stamp: Stamp },
): void {
  const { sessions, outbox } = deps.store;
  const current = new Map(sessions.values(session.id).map((v) => [v.fieldGuid, v]));
  dropRefusedSaves(deps.store, session.id, new Set(values.map(({ field }) => field.fieldGuid)));
  const replacedFiles: string[] = [];
  for (const { field, value, attachmentId } of values) {
    const replaced = current.get(field.fieldGuid)?.attachmentId ?? null;
    if (replaced !== null && replaced !== attachmentId) {
      dropUnsentFile(deps.store, session.id, replaced);
      replacedFiles.push(replaced);
    }
    sessions.setValue(session.id, {
      fieldGuid: field.fieldGuid,
      fieldRevisionid: field.fieldRevisionid,
      stepid,
      value,
      attachmentId: attachmentId ?? null,
    });
  }
  // Once no value shows them (their files go after the commit, if nothing queued names them).
  for (const replaced of replacedFiles) deps.keptFiles.consider(replaced);
  const fresh: StepDataPayload['fields'] = values.map(({ field, value, attachmentId }) => ({
    fieldGuid: field.fieldGuid,
    fieldRevisionid: field.fieldRevisionid,
    value,
    base: current.get(field.fieldGuid)?.serverValue ?? null,
    ...(attachmentId ? { attachmentId } : {}),
  }));
  const tail = outbox.tail(chainKey(sessionChain(session.id)));
  const waiting =
    tail && tail.kind === stepDataAction.name && tail.state === 'pending' && tail.attempts === 0
      ? stepDataAction.parse(tail)
      : null;
  if (tail && waiting?.ok && waiting.payload.stepid === stepid) {
    const merged = new Map(waiting.payload.fields.map((f) => [f.fieldGuid, f]));
    for (const field of fresh) {
      // The base stays the one from when the technician first changed the field.
      const earlier = merged.get(field.fieldGuid);
      merged.set(field.fieldGuid, earlier ? { ...field, base: earlier.base } : field);
    }
    deps.outbox.amend(tail.id, stepDataAction, { ...waiting.payload, fields: [...merged.values()] }, at);
  } else {
    const chain = sessionChain(session.id);
    const payload = { sessionId: session.id, stepid, fields: fresh };
    deps.outbox.enqueue(stepDataAction, payload, { chain, technician: session.technician, ...at });
  }
}

/**
 * Fields saved again leave a step save the site refused for good (a value a revised form no longer takes,
 * say): that save held the rest of the session's queue, the new one waited behind it, and the technician
 * had to find the old save in the sync centre and discard it. A refused save with no field left goes; one
 * that keeps other fields stays refused, with them. The technician's newer value replaces their older one.
 */
function dropRefusedSaves(store: Pick<Store, 'outbox'>, sessionId: string, saved: ReadonlySet<string>): void {
  for (const row of store.outbox.inChain(chainKey(sessionChain(sessionId)))) {
    if (row.kind !== stepDataAction.name || row.state !== 'failed') continue;
    const read = stepDataAction.parse(row);
    if (!read.ok) continue;
    const fields = read.payload.fields.filter((field) => !saved.has(field.fieldGuid));
    if (fields.length === read.payload.fields.length) continue;
    if (fields.length === 0) store.outbox.remove(row.id);
    else store.outbox.replacePayload(row.id, stepDataAction, { ...read.payload, fields }, row.actedAt);
  }
}
