import { storeToRefs } from 'pinia';
import { computed, onMounted, onUnmounted, ref, type ComputedRef } from 'vue';
import { useOutboxStore } from '../stores/outbox.ts';
import { useSessionStore } from '../stores/session.ts';
import { useSyncStore } from '../stores/sync.ts';
import { statusChip, type StatusChip } from './status-chip.ts';

/**
 * The status chip of the stores as they are: the top bar draws it, the announcer says it (also in run mode,
 * where the top bar is not shown). Reads the sync state and the outbox's summary when first used.
 */
export function useStatusChip(): ComputedRef<StatusChip> {
  const { status } = storeToRefs(useSessionStore());
  const sync = useSyncStore();
  const { state, progress } = storeToRefs(sync);
  const outbox = useOutboxStore();
  const { summary } = storeToRefs(outbox);
  // Re-render "5 minutes ago" now and then.
  const now = ref(Date.now());
  let timer: ReturnType<typeof setInterval> | undefined;
  onMounted(() => {
    if (!state.value) void sync.load();
    void outbox.loadSummary();
    timer = setInterval(() => (now.value = Date.now()), 30_000);
  });
  onUnmounted(() => clearInterval(timer));
  return computed(() =>
    statusChip({
      network: status.value?.network ?? 'unknown',
      // With the live progress: the state's is the phase's first, and "Syncing 0%" stood while 359 of 381 guides came.
      sync: state.value ? { ...state.value, progress: progress.value } : null,
      outbox: summary.value,
      nowMs: now.value,
    }),
  );
}
