import { ref } from 'vue';
import { localTimes } from './format.ts';

/**
 * What the site can no longer take stays the technician's: copied as text (times in their local time), to enter
 * again wherever it belongs. `copied` names what was copied last (its button says "Copied"); null when refused.
 */
export function useCopyText<K>() {
  const copied = ref<K | null>(null);
  async function copy(key: K, text: string): Promise<void> {
    await navigator.clipboard.writeText(localTimes(text)).then(
      () => void (copied.value = key),
      () => void (copied.value = null),
    );
  }
  return { copied, copy };
}
