import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppError, GuideDetail } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';

/** The guide open in the reader. A guide kept only as a summary answers with an error saying so. */
export const useGuideStore = defineStore('guide', () => {
  const bridge = useBridge();
  const guideid = ref<number | null>(null);
  const guide = ref<GuideDetail | null>(null);
  const error = ref<AppError | null>(null);
  const loading = ref(false);
  let generation = 0;

  /** With `revisionid`, that revision when this computer keeps it (what a work session pins). */
  async function open(id: number, revisionid?: number): Promise<void> {
    const gen = ++generation;
    guideid.value = id;
    loading.value = true;
    error.value = null;
    if (guide.value?.guideid !== id) guide.value = null;
    try {
      const result = revisionid === undefined ? await bridge.getGuide(id) : await bridge.getGuide(id, revisionid);
      if (gen !== generation) return;
      if (result.ok) guide.value = result.value;
      else {
        guide.value = null;
        error.value = result.error;
      }
    } finally {
      if (gen === generation) loading.value = false;
    }
  }

  /** Kept only as a summary on this computer (the App API's not_found with `offline: 'summary'`). */
  const summaryOnly = (e: AppError | null): boolean => e?.code === 'not_found' && e.details?.offline === 'summary';

  return { guideid, guide, error, loading, open, summaryOnly };
});
