import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { GuideChanges } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';

/**
 * Guides changed since the current technician last read them: the library marks them, and the guide on
 * screen shows what changed until they say they have seen it. Read again after a sync and when someone
 * else starts working on this laptop.
 */
export const useChangesStore = defineStore('changes', () => {
  const bridge = useBridge();
  const changed = ref<Set<number>>(new Set());
  const shown = ref<GuideChanges | null>(null);
  let loaded = false;

  bridge.onEvent((event) => {
    if ((event.name === 'syncState' || event.name === 'status') && loaded) void loadChanged();
  });

  async function loadChanged(): Promise<void> {
    loaded = true;
    const result = await bridge.changedGuides();
    if (result.ok) changed.value = new Set(result.value);
  }

  /** The guide opened: what changed in it since this technician last read it (its first reading is kept). */
  async function open(guideid: number): Promise<void> {
    if (shown.value?.guideid !== guideid) shown.value = null;
    const result = await bridge.guideChanges(guideid);
    shown.value = result.ok ? result.value : null;
  }

  async function seen(guideid: number): Promise<void> {
    const result = await bridge.seenGuideChanges(guideid);
    if (!result.ok) return;
    if (shown.value?.guideid === guideid) shown.value = null;
    await loadChanged();
  }

  return { changed, shown, loadChanged, open, seen };
});
