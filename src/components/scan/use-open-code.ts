import { useRouter } from 'vue-router';
import { useLibraryStore } from '../../stores/library.ts';
import { useScanStore, type ScanOutcome } from '../../stores/scan.ts';
import { useSessionStore } from '../../stores/session.ts';

/**
 * Opens what a scanned code names at once: the guide, the library on the category, or the technician's open
 * session of a work order (the Sessions list when several are open). A code that names
 * nothing known goes to the search page with the code in the box and says so there; with `sayUnknown` false
 * (words typed in a burst, not a code) it is only searched for, as typed words are.
 */
export function useOpenCode() {
  const router = useRouter();
  const scan = useScanStore();
  const library = useLibraryStore();
  const session = useSessionStore();

  return async function openCode(raw: string, { sayUnknown = true } = {}): Promise<ScanOutcome['to']> {
    const outcome = await scan.resolve(raw);
    if (outcome.to === 'superseded') return outcome.to;
    if (outcome.to === 'guide') {
      scan.say(null);
      await router.push({ name: 'guide', params: { guideid: outcome.guideid } });
    } else if (outcome.to === 'session') {
      scan.say(null);
      await router.push({ name: 'work-session', params: { id: outcome.id } });
    } else if (outcome.to === 'sessions') {
      scan.say(null);
      session.setNotice(outcome.words);
      await router.push({ name: 'sessions' });
    } else if (outcome.to === 'category') {
      scan.say(null);
      await library.setFilter({ category: outcome.name, type: null, tag: '', offlineOnly: false });
      await router.push({ name: 'library' });
    } else if (sayUnknown) {
      scan.say(outcome.words);
      await router.push({ name: 'search', query: { q: outcome.text } });
    } else {
      scan.say(null);
      await router.replace({ name: 'search', query: { q: outcome.text } });
    }
    return outcome.to;
  };
}
