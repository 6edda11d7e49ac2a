import { defineStore } from 'pinia';
import { ref } from 'vue';

/**
 * Whether a work session runs on screen (issue 28): the app's top bar and status bar step back and the
 * session shows its own compact header, so the step has the window.
 */
export const useRunModeStore = defineStore('runMode', () => {
  const active = ref(false);
  const set = (on: boolean): void => {
    active.value = on;
  };
  return { active, set };
});
