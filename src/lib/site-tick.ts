import { onMounted, onUnmounted, ref, type Ref } from 'vue';
import { msToNextSecond } from './site-clock.ts';

// One clock for every running timer on the screen: the site's time, moved on at each of its whole seconds.
// Timers that each counted a second from when they appeared showed two times a second apart (the run
// mode's header and its step bar, which appears again after the finish review).
const now = ref(0);
let users = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let read: () => number = () => Date.now() / 1000;

function tick(): void {
  now.value = read();
  timer = setTimeout(tick, msToNextSecond(now.value));
}

/** The site's time (unix seconds), the same for every caller, ticking while one of them is mounted. */
export function useSiteTick(siteNow: () => number): Readonly<Ref<number>> {
  // Every caller passes the session store's reader; the latest is kept, so a new site's offset counts.
  read = siteNow;
  now.value = siteNow();
  onMounted(() => {
    if (users++ === 0) tick();
  });
  onUnmounted(() => {
    if (--users === 0) clearTimeout(timer);
  });
  return now;
}
