import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { WorkSession } from '../../electron/contract.ts';
import { SEARCH_TEXT_MAX } from '../../electron/shared/limits.ts';
import { openHere } from '../lib/taken-over.ts';
import { useBridge } from '../bridge/index.ts';
import { cleanCode, readScannedCode, unknownCodeWords } from '../lib/scan-code.ts';
import { useSessionStore } from './session.ts';

/** Where a scanned code leads: a guide, a category of the library, or the search with the code in the box. */
export type ScanOutcome =
  | { to: 'guide'; guideid: number }
  | { to: 'category'; name: string }
  | { to: 'session'; id: string }
  | { to: 'sessions'; words: string }
  | { to: 'search'; text: string; words: string }
  /** Another code was scanned while this one was looked up: the later one opens, this one nothing. */
  | { to: 'superseded' };

/** A code answered within this long is never said as looked up: the words would only flash by. */
export const LOOKING_SAID_AFTER_MS = 400;
/** A code is named in the words of its lookup up to this long (a label's link can run to hundreds). */
const LOOKING_CODE_CHARS = 60;

/** The words said while a code is looked up: the code as read, its end cut when it is long. */
function lookingWords(raw: string): string {
  const code = cleanCode(raw);
  const shown = code.length > LOOKING_CODE_CHARS ? `${code.slice(0, LOOKING_CODE_CHARS - 1)}…` : code;
  return `Looking up the code “${shown}”…`;
}

/**
 * Scan to open: a code from the webcam or a USB scanner, read offline against what this computer keeps
 * (the stored category tree, the guides of the library). `notice` is the last code that opened nothing,
 * in plain words; the search page shows it above the results for the code. `looking` says a code is being
 * looked up, once that has taken LOOKING_SAID_AFTER_MS (the app's answers were slow and nothing said so).
 */
export const useScanStore = defineStore('scan', () => {
  const bridge = useBridge();
  const session = useSessionStore();
  const notice = ref<string | null>(null);
  const looking = ref<string | null>(null);
  /** The lookups asked so far: only the last one's words are said, and only its end takes them away. */
  let asked = 0;

  async function resolve(raw: string): Promise<ScanOutcome> {
    const mine = ++asked;
    const timer = setTimeout(() => {
      if (mine === asked) looking.value = lookingWords(raw);
    }, LOOKING_SAID_AFTER_MS);
    try {
      const outcome = await lookUp(raw);
      // Two scans close together: the first one's answer, come second, took the technician from the guide the
      // second opened to a search for the first (a walk, the list of sessions slow to answer).
      return mine === asked ? outcome : { to: 'superseded' };
    } finally {
      clearTimeout(timer);
      if (mine === asked) looking.value = null;
    }
  }

  async function lookUp(raw: string): Promise<ScanOutcome> {
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
    // A job sheet's work order: the technician's open session of it (a walk's scan of one searched the guides).
    if (!code.otherSite && text) {
      const open = await openSessionsOf(text);
      if (open.length === 1) return { to: 'session', id: open[0]!.id };
      if (open.length > 1)
        return { to: 'sessions', words: `Work order ${text} is open in ${open.length} of your sessions: choose one.` };
    }
    if (text.length > SEARCH_TEXT_MAX) {
      const words =
        `The code read is ${text.length} characters long and names no guide or category on this computer: ` +
        `its first ${SEARCH_TEXT_MAX} are searched for.`;
      return { to: 'search', text: text.slice(0, SEARCH_TEXT_MAX), words };
    }
    return { to: 'search', text, words: unknownCodeWords(code, siteUrl) };
  }

  async function openSessionsOf(workorder: string): Promise<WorkSession[]> {
    const listed = await bridge.listSessions({ ended: 0 });
    const same = (a: string) => a.trim().toLowerCase() === workorder.trim().toLowerCase();
    return listed.ok ? listed.value.filter((s) => openHere(s) && same(s.workorderid)) : [];
  }

  function say(words: string | null): void {
    notice.value = words;
  }

  /**
   * The technician moved on (typed, opened another page): a code still looked up opens nothing when it answers,
   * and is no longer said as looked up. Its late answer, the site slow, took them from the guide they had opened
   * since, or from the words they were typing.
   */
  function drop(): void {
    asked++;
    looking.value = null;
  }

  /** Another technician works now: what the previous one scanned goes. */
  function forget(): void {
    notice.value = null;
    drop();
  }

  return { notice, looking, resolve, say, drop, forget };
});
