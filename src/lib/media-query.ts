import { onBeforeUnmount, ref, type Ref } from 'vue';

/** Whether a CSS media query matches now, kept up to date while the calling component lives. */
export function useMediaQuery(query: string): Ref<boolean> {
  const list = window.matchMedia(query);
  const matches = ref(list.matches);
  const changed = (event: MediaQueryListEvent) => (matches.value = event.matches);
  list.addEventListener('change', changed);
  onBeforeUnmount(() => list.removeEventListener('change', changed));
  return matches;
}
