import { onBeforeUnmount, onMounted, watch } from 'vue';
import { useRoute } from 'vue-router';
import { useScanStore } from '../../stores/scan.ts';

/**
 * A code looked up while the site is slow opens what it names only if the technician is still waiting for it:
 * once they type (into any field: other words in Search) or another page opens (another guide), its answer
 * opens nothing (it took them from the guide they had opened since). A code's own keys come before its lookup.
 */
export function useLookupDroppedOnMove(): void {
  const scan = useScanStore();
  const route = useRoute();
  watch(
    () => route.path,
    () => scan.drop(),
  );
  // Typed by the technician (the app's own restoring of a field after a scanner's read is not).
  const onInput = (event: Event) => {
    if (event.isTrusted) scan.drop();
  };
  onMounted(() => window.addEventListener('input', onInput, true));
  onBeforeUnmount(() => window.removeEventListener('input', onInput, true));
}
