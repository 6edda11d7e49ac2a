import { ref } from 'vue';

// "Larger text": the whole app is sized in rem, so one root size scales every screen. Kept per
// window in localStorage (a display preference, not synced content).
const KEY = 'fieldguide.textSize';
const LARGE_PX = 19;
const large = ref(read());
apply();

function read(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'large';
  } catch {
    return false;
  }
}

/** The root's size, and `data-text-size="large"` for the layouts that make room for it (AppTopBar.vue). */
function apply(): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.style.fontSize = large.value ? `${LARGE_PX}px` : '';
  if (large.value) root.dataset.textSize = 'large';
  else delete root.dataset.textSize;
}

export function useTextSize(): { large: typeof large; toggle: () => void } {
  return {
    large,
    toggle: () => {
      large.value = !large.value;
      try {
        localStorage.setItem(KEY, large.value ? 'large' : 'standard');
      } catch {
        // Storage refused (private mode): the choice lasts until the window closes.
      }
      apply();
    },
  };
}
