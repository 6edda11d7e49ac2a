import { describe, expect, it } from 'vitest';
import type { AppEvent, ConflictRecord, OutboxView, Result } from '../../electron/contract.ts';
import { NOTHING_WAITING } from '../../src/lib/status-chip.ts';
import { withStandInBridge } from '../helpers/stand-in-bridge.ts';

// The outbox store with a stand-in bridge whose answers come when the test says: a conflict told by an
// event while a read of the list is out (the replay records it between the read and its answer). The
// store is the logic under test; the App API is not.
const conflictReads: ((value: Result<ConflictRecord[]>) => void)[] = [];
/** Reads of the outbox held until the test answers them (when `holdViews`); answered at once otherwise. */
const viewReads: ((value: Result<OutboxView>) => void)[] = [];
let holdViews = false;
let tell: (event: AppEvent) => void = () => undefined;
const view: OutboxView = {
  summary: NOTHING_WAITING,
  actions: [],
  unlisted: 0,
};
const fakeBridge = {
  onEvent: (listener: (event: AppEvent) => void) => {
    tell = listener;
    return () => undefined;
  },
  getOutbox: (): Promise<Result<OutboxView>> =>
    holdViews ? new Promise((resolve) => viewReads.push(resolve)) : Promise.resolve({ ok: true, value: view }),
  listConflicts: () => new Promise<Result<ConflictRecord[]>>((resolve) => conflictReads.push(resolve)),
};
const record = { id: 7, sessionId: 's1', kind: 'transition', message: 'Cancelled on the site' } as ConflictRecord;

const stores = withStandInBridge(
  fakeBridge,
  () => import('../../src/stores/outbox.ts'),
  () => {
    conflictReads.length = 0;
    viewReads.length = 0;
    holdViews = false;
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

describe("the outbox store's summary (the status chip's counts)", () => {
  const summary = (told: number, counts: Partial<OutboxView['summary']>) => ({ ...view.summary, ...counts, told });

  it('keeps what an event told over a read that left before it and answers after it', async () => {
    // The top bar's read as run mode closes, out while the replay sends: the site refuses the start, and
    // the event telling so comes before the read's answer, which counted it as still waiting.
    holdViews = true;
    const store = stores.module.useOutboxStore();
    const read = store.loadSummary();
    tell({ name: 'outbox', payload: summary(5, { pending: 1, failed: 1 }) } as AppEvent);
    viewReads[0]!({ ok: true, value: { ...view, summary: summary(4, { pending: 2, retrying: 1 }) } });
    await read;
    expect(store.summary).toMatchObject({ pending: 1, failed: 1, told: 5 });
  });

  it('takes a read newer than the last event, with its list', async () => {
    holdViews = true;
    const store = stores.module.useOutboxStore();
    tell({ name: 'outbox', payload: summary(5, { pending: 2, retrying: 1 }) } as AppEvent);
    store.watch();
    const action = { id: 1, kind: 'start', state: 'failed' } as OutboxView['actions'][number];
    viewReads[0]!({ ok: true, value: { ...view, summary: summary(6, { pending: 1, failed: 1 }), actions: [action] } });
    conflictReads[0]!({ ok: true, value: [] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.summary).toMatchObject({ pending: 1, failed: 1, told: 6 });
    expect(store.actions.map((a) => a.id)).toEqual([1]);
  });
});

describe("the outbox store's summary", () => {
  it('is read once for the top bar and the announcer asking together, and again after', async () => {
    const store = stores.module.useOutboxStore();
    holdViews = true;
    const [first, second] = [store.loadSummary(), store.loadSummary()];
    expect(viewReads).toHaveLength(1);
    viewReads[0]!({ ok: true, value: { ...view, summary: { ...NOTHING_WAITING, pending: 2, told: 5 } } });
    await Promise.all([first, second]);
    expect(store.summary.pending).toBe(2);
    void store.loadSummary();
    expect(viewReads).toHaveLength(2);
  });
});
