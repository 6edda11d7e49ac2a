import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppError, GuideDetail, GuideSummary } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';

/**
 * The guide open in the reader: a stored guide, or one read from the site (`readFromSite`). Local first:
 * the stored summary is read at once beside the guide, so a guide kept only as a summary shows its title,
 * summary and picture while the site is asked for the whole of it (a hanging site never leaves the page
 * blank); if the site is out of reach, the answer is an error saying so and the summary stays.
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
    const kept = bridge.getGuideSummary(id).then((answer) => {
      if (gen === generation && guide.value?.guideid !== id && answer.ok) summary.value = answer.value;
    });
    try {
      const result = revisionid === undefined ? await bridge.getGuide(id) : await bridge.getGuide(id, revisionid);
      if (gen !== generation) return;
      if (result.ok) {
        guide.value = result.value;
        summary.value = null;
        return;
      }
      guide.value = null;
      if (summaryOnly(result.error)) await kept;
      else summary.value = null;
      if (gen !== generation) return;
      error.value = result.error;
    } finally {
      if (gen === generation) loading.value = false;
    }
  }

  /**
   * Reads the open guide again and takes only a whole answer: what is shown stays when the read fails (a
   * guide read from the site, then a keep the hanging site did not answer, became "Not available offline").
   */
  async function refresh(): Promise<void> {
    const id = guideid.value;
    if (id === null) return;
    const gen = generation;
    const result = await bridge.getGuide(id);
    if (gen !== generation || !result.ok) return;
    guide.value = result.value;
    summary.value = null;
    error.value = null;
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

  return { guideid, guide, summary, error, loading, open, refresh, summaryOnly, forget };
});
