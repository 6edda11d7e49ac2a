import { useRouter } from 'vue-router';
import { useLibraryStore } from '../../stores/library.ts';
import { useScanStore } from '../../stores/scan.ts';

/**
 * Opens what a scanned code names at once: the guide, or the library on the category. A code that names
 * nothing known goes to the search page with the code in the box and says so there.
 */
export function useOpenCode() {
  const router = useRouter();
  const scan = useScanStore();
  const library = useLibraryStore();

  return async function openCode(raw: string): Promise<'guide' | 'category' | 'search'> {
    const outcome = await scan.resolve(raw);
    if (outcome.to === 'guide') {
      scan.say(null);
      await router.push({ name: 'guide', params: { guideid: outcome.guideid } });
    } else if (outcome.to === 'category') {
      scan.say(null);
      await library.setFilter({ category: outcome.name, type: null, tag: '', offlineOnly: false });
      await router.push({ name: 'library' });
    } else {
      scan.say(outcome.words);
      await router.push({ name: 'search', query: { q: outcome.text } });
    }
    return outcome.to;
  };
}
