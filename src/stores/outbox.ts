import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type {
  AppError,
  ConflictRecord,
  OutboxAction,
  OutboxSummary,
  OutboxView,
  Result,
} from '../../electron/contract.ts';
import { madeBefore } from '../../electron/shared/told.ts';
import { useBridge } from '../bridge/index.ts';
import { NOTHING_WAITING as EMPTY } from '../lib/status-chip.ts';

/** What waits to reach the site: the summary always (the badge), the actions and conflicts while a view watches. */
export const useOutboxStore = defineStore('outbox', () => {
  const bridge = useBridge();
  const summary = ref<OutboxSummary>(EMPTY);
  const actions = ref<OutboxAction[]>([]);
  /** The current technician's actions waiting after those listed (the core lists the first ones). */
  const unlisted = ref(0);
  const conflicts = ref<ConflictRecord[]>([]);
  /**
   * Whether `actions` is a read made while the view watches: opened again, the Sync centre showed the list
   * of its last visit (1 action beside "76 changes") until its own read came back.
   */
  const listed = ref(false);
  const busy = ref<null | 'flush' | `retry:${number}` | `discard:${number}` | `settle:${number}`>(null);
  const error = ref<AppError | null>(null);
  let watchers = 0;
  let reload: ReturnType<typeof setTimeout> | undefined;
  /** Conflicts the core has told of: a read of the list asked before the last of them is older than it. */
  let conflictsTold = 0;

  bridge.onEvent((event) => {
    if (event.name === 'outbox') {
      take(event.payload);
      // Replay emits a summary per action: one read of the list per burst is enough.
      if (watchers > 0) {
        clearTimeout(reload);
        reload = setTimeout(() => void load(), 150);
      }
    } else if (event.name === 'conflict') {
      conflictsTold++;
      // A session's one record grows as more of its queued work meets the site's decision: replaced in place.
      const known = conflicts.value.some((c) => c.id === event.payload.id);
      conflicts.value = known
        ? conflicts.value.map((c) => (c.id === event.payload.id ? event.payload : c))
        : [...conflicts.value, event.payload];
    }
  });

  const waiting = computed(() => summary.value.pending + summary.value.inFlight);

  /**
   * A summary newer than the one shown: a read answered after an event it is older than is not taken (the
   * top bar's read on leaving run mode, answered after the replay's event, kept "Sending 2…" over "1 failed").
   */
  function take(next: OutboxSummary): boolean {
    if (madeBefore(next, summary.value)) return false;
    summary.value = next;
    return true;
  }

  function takeView(result: Result<OutboxView>): boolean {
    if (!result.ok) {
      error.value = result.error;
      return false;
    }
    // Older than the summary told since (its list too): the event newer than it read the list again.
    if (take(result.value.summary)) {
      actions.value = result.value.actions;
      unlisted.value = result.value.unlisted;
      if (watchers > 0) listed.value = true;
    }
    return true;
  }

  async function load(): Promise<void> {
    const told = conflictsTold;
    const [view, open] = await Promise.all([bridge.getOutbox(), bridge.listConflicts()]);
    takeView(view);
    if (!open.ok) return;
    // A conflict told while this read was out is newer than the list it read: set back to that list, its
    // card went from the screen until the next read (seen in CI: shown, then gone). The list is read again.
    if (conflictsTold === told) conflicts.value = open.value;
    else void load();
  }

  /**
   * The summary read once for everyone asking at the same time: the top bar and the announcer each asked at
   * start-up (two reads of the outbox for one chip).
   */
  let summaryRead: Promise<void> | null = null;
  function loadSummary(): Promise<void> {
    summaryRead ??= bridge
      .getOutbox()
      .then((view) => void takeView(view))
      .finally(() => (summaryRead = null));
    return summaryRead;
  }

  /** A view that shows the actions calls this while mounted; the list then follows the events. */
  function watch(): () => void {
    if (watchers === 0) listed.value = false;
    watchers++;
    void load();
    return () => {
      watchers--;
    };
  }

  async function run(kind: NonNullable<typeof busy.value>, call: () => Promise<boolean>): Promise<boolean> {
    busy.value = kind;
    error.value = null;
    try {
      return await call();
    } finally {
      busy.value = null;
    }
  }

  const flush = () =>
    run('flush', async () => {
      const result = await bridge.flushOutbox();
      if (result.ok) take(result.value);
      else error.value = result.error;
      await load();
      return result.ok;
    });
  const retry = (id: number) => run(`retry:${id}`, async () => takeView(await bridge.retryAction(id)));
  const discard = (id: number) => run(`discard:${id}`, async () => takeView(await bridge.discardAction(id)));
  const settle = (conflictId: number, keep: 'mine' | 'theirs') =>
    run(`settle:${conflictId}`, async () => {
      const result = await bridge.settleConflict({ conflictId, keep });
      if (result.ok) conflicts.value = result.value;
      else error.value = result.error;
      return result.ok;
    });

  /** Another technician works now: the list and conflicts shown are theirs, read afresh. */
  function forget(): void {
    actions.value = [];
    unlisted.value = 0;
    conflicts.value = [];
    error.value = null;
    void (watchers > 0 ? load() : loadSummary());
  }

  return {
    forget,
    summary,
    actions,
    listed,
    unlisted,
    conflicts,
    busy,
    error,
    waiting,
    load,
    loadSummary,
    watch,
    flush,
    retry,
    discard,
    settle,
  };
});
