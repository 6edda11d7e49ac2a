import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AppError, SearchResults } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';
import { useSessionStore } from './session.ts';

const PAGE = 30;

/**
 * Search: the guides on this computer at once (FTS5, in the technician's language), then, while the site
 * answers, the site's own search in their place, with the guides kept here that it did not list after it
 * (`alsoHere`: a site that searches titles only, or words as typed, said "No guide matches" over guides
 * this computer had found). The site's search never holds the local results back: while it is slow they
 * are shown, and when it fails they stay, with a calm note.
 */
export const useSearchStore = defineStore('search', () => {
  const bridge = useBridge();
  const session = useSessionStore();
  const text = ref('');
  const results = ref<SearchResults | null>(null);
  /** This computer's own results for the same words: shown first, then kept beside the site's. */
  const local = ref<SearchResults | null>(null);
  /** Guides kept here that match and that the site's results (as far as they are shown) do not list. */
  const alsoHere = computed<SearchResults['items']>(() => {
    const shown = results.value;
    if (shown?.source !== 'site' || !local.value) return [];
    const listed = new Set(shown.items.map((item) => item.guideid));
    return local.value.items.filter((item) => !listed.has(item.guideid));
  });
  const searchedFor = ref('');
  const busy = ref(false);
  /** The site's search is being asked (the local results are shown meanwhile). */
  const asking = ref(false);
  /** Why the local results stand where the site's were asked, in calm words. */
  const note = ref<string | null>(null);
  const error = ref<AppError | null>(null);
  let generation = 0;

  async function search(query: string): Promise<void> {
    const gen = ++generation;
    const trimmed = query.trim();
    text.value = query;
    error.value = null;
    note.value = null;
    asking.value = false;
    if (!trimmed) {
      // A search still out is forgotten: its "Searching…" went on for ever under the emptied field.
      busy.value = false;
      results.value = null;
      local.value = null;
      searchedFor.value = '';
      return;
    }
    busy.value = true;
    try {
      const here = await bridge.search({ text: trimmed, where: 'local', limit: PAGE, offset: 0 });
      if (gen !== generation) return;
      searchedFor.value = trimmed;
      if (here.ok) results.value = local.value = here.value;
      else {
        results.value = local.value = null;
        error.value = here.error;
      }
    } finally {
      if (gen === generation) busy.value = false;
    }
    if (session.status?.network === 'offline') return;
    asking.value = true;
    askSite(trimmed, gen);
  }

  /**
   * One question to the site's search at a time: one that does not answer holds a connection for up to
   * its time limit (a browser has six to the web shell), so the text typed meanwhile is asked once it
   * ends, the latest only. The local results are shown whatever happens here.
   */
  let siteBusy = false;
  let siteNext: { text: string; gen: number } | null = null;
  async function askSite(query: string, gen: number): Promise<void> {
    if (siteBusy) {
      siteNext = { text: query, gen };
      return;
    }
    siteBusy = true;
    try {
      const site = await bridge.search({ text: query, where: 'auto', limit: PAGE, offset: 0 });
      if (gen !== generation) return;
      const couldNot = (why: string) =>
        `The site's search could not answer (${why}): these are the guides on this computer.`;
      if (!site.ok) note.value = couldNot(site.error.message);
      else if (site.value.source === 'site') results.value = site.value;
      else note.value = site.value.note ?? null;
    } finally {
      siteBusy = false;
      if (gen === generation) asking.value = false;
      const next = siteNext;
      siteNext = null;
      if (next && next.gen === generation) void askSite(next.text, next.gen);
    }
  }

  /** The next page of the same search, from the same source. */
  async function more(): Promise<void> {
    const current = results.value;
    if (!current || current.items.length >= current.total || busy.value) return;
    const gen = generation;
    busy.value = true;
    try {
      const result = await bridge.search({
        text: searchedFor.value,
        where: current.source,
        limit: PAGE,
        offset: current.items.length,
      });
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
    local.value = null;
    searchedFor.value = '';
    error.value = null;
    note.value = null;
    busy.value = false;
    asking.value = false;
  }

  return { text, results, alsoHere, searchedFor, busy, asking, note, error, search, more, forget };
});
