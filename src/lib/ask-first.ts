import { nextTick, ref } from 'vue';

/**
 * A button that asks before what it does cannot be undone (take over a colleague's session, discard a
 * change): `ask` shows the question and puts the keyboard's focus on `answer` (the question's answer a
 * second Enter should meet); `cancel` hides it and gives the focus back to `button`. Bind both as
 * template refs.
 */
export function useAskFirst() {
  const asking = ref(false);
  const answer = ref<HTMLButtonElement | null>(null);
  const button = ref<HTMLButtonElement | null>(null);
  async function ask(): Promise<void> {
    asking.value = true;
    await nextTick();
    answer.value?.focus();
  }
  async function cancel(): Promise<void> {
    asking.value = false;
    await nextTick();
    button.value?.focus();
  }
  return { asking, answer, button, ask, cancel };
}
