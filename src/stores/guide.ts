import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppError, GuideDetail, GuideSummary } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';

/**
 * The guide open in the reader: a stored guide, or one read from the site (`readFromSite`). A guide kept
 * only as a summary, with the site out of reach, answers with an error saying so; its stored summary is
 * then read too, so the reader shows what is kept instead of only the error.
 */
export const useGuideStore = defineStore('guide', () => {
  const bridge = useBridge();
  const guideid = ref<number | null>(null);
  const guide = ref<GuideDetail | null>(null);
  const summary = ref<GuideSummary | null>(null);
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
    if (summary.value?.guideid !== id) summary.value = null;
    try {
      const result = revisionid === undefined ? await bridge.getGuide(id) : await bridge.getGuide(id, revisionid);
      if (gen !== generation) return;
      if (result.ok) {
        guide.value = result.value;
        summary.value = null;
        return;
      }
      guide.value = null;
      if (summaryOnly(result.error)) {
        const kept = await bridge.getGuideSummary(id);
        if (gen !== generation) return;
        summary.value = kept.ok ? kept.value : null;
      }
      error.value = result.error;
    } finally {
      if (gen === generation) loading.value = false;
    }
  }

  /** Kept only as a summary on this computer, and the site out of reach (the App API's `offline: 'summary'`). */
  const summaryOnly = (e: AppError | null): boolean => e?.details?.offline === 'summary';

  /** Another technician works now: the guide open before is not assumed to be theirs to read. */
  function forget(): void {
    generation++;
    guideid.value = null;
    guide.value = null;
    summary.value = null;
    error.value = null;
    loading.value = false;
  }

  return { guideid, guide, summary, error, loading, open, summaryOnly, forget };
});
