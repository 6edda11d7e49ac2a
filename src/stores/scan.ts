import { defineStore } from 'pinia';
import { ref } from 'vue';
import { SEARCH_TEXT_MAX } from '../../electron/shared/limits.ts';
import { useBridge } from '../bridge/index.ts';
import { cleanCode, readScannedCode, unknownCodeWords } from '../lib/scan-code.ts';
import { useSessionStore } from './session.ts';

/** Where a scanned code leads: a guide, a category of the library, or the search with the code in the box. */
export type ScanOutcome =
  { to: 'guide'; guideid: number } | { to: 'category'; name: string } | { to: 'search'; text: string; words: string };

/**
 * Scan to open: a code from the webcam or a USB scanner, read offline against what this computer keeps
 * (the stored category tree, the guides of the library). `notice` is the last code that opened nothing,
 * in plain words; the search page shows it above the results for the code.
 */
export const useScanStore = defineStore('scan', () => {
  const bridge = useBridge();
  const session = useSessionStore();
  const notice = ref<string | null>(null);

  async function resolve(raw: string): Promise<ScanOutcome> {
    const tree = await bridge.getCategories();
    const siteUrl = session.status?.site?.url ?? null;
    const place = { siteUrl, appOrigin: window.location.origin, categories: tree.ok ? tree.value : [] };
    const code = readScannedCode(raw, place);
    if (code.kind === 'guide') {
      const kept = await bridge.getGuideSummary(code.guideid);
      if (kept.ok) return { to: 'guide', guideid: code.guideid };
      const words =
        kept.error.code === 'not_found'
          ? `No guide ${code.guideid} is on this computer (the code “${code.text}”): searching for it instead.`
          : `Guide ${code.guideid} could not be opened (${kept.error.message}): searching for the code instead.`;
      return { to: 'search', text: code.text, words };
    }
    if (code.kind === 'category') return { to: 'category', name: code.name };
    const text = code.text || cleanCode(raw);
    if (text.length > SEARCH_TEXT_MAX) {
      const words =
        `The code read is ${text.length} characters long and names no guide or category on this computer: ` +
        `its first ${SEARCH_TEXT_MAX} are searched for.`;
      return { to: 'search', text: text.slice(0, SEARCH_TEXT_MAX), words };
    }
    return { to: 'search', text, words: unknownCodeWords(code, siteUrl) };
  }

  function say(words: string | null): void {
    notice.value = words;
  }

  /** Another technician works now: what the previous one scanned goes. */
  function forget(): void {
    notice.value = null;
  }

  return { notice, resolve, say, forget };
});
