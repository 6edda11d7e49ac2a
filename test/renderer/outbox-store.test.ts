import { describe, expect, it } from 'vitest';
import type { AppEvent, ConflictRecord, OutboxView, Result } from '../../electron/contract.ts';
import { withStandInBridge } from '../helpers/stand-in-bridge.ts';

// The outbox store with a stand-in bridge whose answers come when the test says: a conflict told by an
// event while a read of the list is out (the replay records it between the read and its answer). The
// store is the logic under test; the App API is not.
const conflictReads: ((value: Result<ConflictRecord[]>) => void)[] = [];
let tell: (event: AppEvent) => void = () => undefined;
const view: OutboxView = {
  summary: { pending: 0, retrying: 0, inFlight: 0, failed: 0, conflicts: 0, others: [], heldAside: 0, diskFull: false },
  actions: [],
  unlisted: 0,
};
const fakeBridge = {
  onEvent: (listener: (event: AppEvent) => void) => {
    tell = listener;
    return () => undefined;
  },
  getOutbox: async (): Promise<Result<OutboxView>> => ({ ok: true, value: view }),
  listConflicts: () => new Promise<Result<ConflictRecord[]>>((resolve) => conflictReads.push(resolve)),
};
const record = { id: 7, sessionId: 's1', kind: 'transition', message: 'Cancelled on the site' } as ConflictRecord;

const stores = withStandInBridge(
  fakeBridge,
  () => import('../../src/stores/outbox.ts'),
  () => {
    conflictReads.length = 0;
  },
);

describe("the outbox store's list of conflicts", () => {
  it('keeps a conflict told while a read of the list was out, and reads the list again', async () => {
    const store = stores.module.useOutboxStore();
    store.watch();
    tell({ name: 'conflict', payload: record } as AppEvent);
    expect(store.conflicts.map((c) => c.id)).toEqual([7]);
    // The read asked before the conflict was recorded answers now, without it.
    conflictReads[0]!({ ok: true, value: [] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.conflicts.map((c) => c.id)).toEqual([7]);
    expect(conflictReads).toHaveLength(2);
    conflictReads[1]!({ ok: true, value: [record] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.conflicts.map((c) => c.id)).toEqual([7]);
  });

  it('takes the list a read answers when nothing was told meanwhile', async () => {
    const store = stores.module.useOutboxStore();
    store.watch();
    conflictReads[0]!({ ok: true, value: [record] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.conflicts.map((c) => c.id)).toEqual([7]);
    expect(conflictReads).toHaveLength(1);
  });
});
