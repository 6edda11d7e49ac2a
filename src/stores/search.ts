import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppError, SearchResults } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';

const PAGE = 30;

/** Search: the site's search when online, the local full-text index offline (the answer says which). */
export const useSearchStore = defineStore('search', () => {
  const bridge = useBridge();
  const text = ref('');
  const results = ref<SearchResults | null>(null);
  const searchedFor = ref('');
  const busy = ref(false);
  const error = ref<AppError | null>(null);
  let generation = 0;

  async function search(query: string): Promise<void> {
    const gen = ++generation;
    const trimmed = query.trim();
    text.value = query;
    error.value = null;
    if (!trimmed) {
      results.value = null;
      searchedFor.value = '';
      return;
    }
    busy.value = true;
    try {
      const result = await bridge.search({ text: trimmed, limit: PAGE, offset: 0 });
      if (gen !== generation) return;
      searchedFor.value = trimmed;
      if (result.ok) results.value = result.value;
      else {
        results.value = null;
        error.value = result.error;
      }
    } finally {
      if (gen === generation) busy.value = false;
    }
  }

  /** The next page of the same search, from the same source. */
  async function more(): Promise<void> {
    const current = results.value;
    if (!current || current.items.length >= current.total || busy.value) return;
    const gen = generation;
    busy.value = true;
    try {
      const result = await bridge.search({ text: searchedFor.value, where: current.source, limit: PAGE, offset: current.items.length });
      if (gen !== generation) return;
      if (result.ok) results.value = { ...result.value, items: [...current.items, ...result.value.items] };
      else error.value = result.error;
    } finally {
      if (gen === generation) busy.value = false;
    }
  }

  /** Another technician works now: results found for the previous one go. */
  function forget(): void {
    generation++;
    text.value = '';
    results.value = null;
    searchedFor.value = '';
    error.value = null;
    busy.value = false;
  }

  return { text, results, searchedFor, busy, error, search, more, forget };
});
