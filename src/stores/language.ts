import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppError, LanguageState } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';

/** The site's languages and the one the current technician reads guides in. */
export const useLanguageStore = defineStore('language', () => {
  const bridge = useBridge();
  const state = ref<LanguageState | null>(null);
  const busy = ref(false);
  const error = ref<AppError | null>(null);

  async function load(): Promise<void> {
    const result = await bridge.getLanguages();
    if (result.ok) state.value = result.value;
    else error.value = result.error;
  }

  /** Reads guides in `langid` from now on (null: the site's own); a sync then reads the kept guides in it. */
  async function choose(langid: string | null): Promise<boolean> {
    busy.value = true;
    error.value = null;
    try {
      const result = await bridge.setLanguage(langid);
      if (result.ok) state.value = result.value;
      else error.value = result.error;
      return result.ok;
    } finally {
      busy.value = false;
    }
  }

  return { state, busy, error, load, choose };
});
