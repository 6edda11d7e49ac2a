import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { MyComment, NewComment, Result } from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';

/**
 * This technician's own comments on the guide on screen, and whether the site has comments at all; read
 * again when the outbox moves (a comment sent, an edit or a delete done). Commands answer the Result.
 */
export const useCommentsStore = defineStore('comments', () => {
  const bridge = useBridge();
  const guideid = ref<number | null>(null);
  const offered = ref(false);
  const mine = ref<MyComment[]>([]);
  let reload: ReturnType<typeof setTimeout> | undefined;

  bridge.onEvent((event) => {
    if (event.name !== 'outbox' || guideid.value === null) return;
    clearTimeout(reload);
    reload = setTimeout(() => void load(guideid.value!), 150);
  });

  /** Reads asked so far: only the last one's answer is shown. */
  let asked = 0;

  async function load(id: number): Promise<void> {
    if (guideid.value !== id) [mine.value, offered.value] = [[], false];
    guideid.value = id;
    const ask = ++asked;
    const result = await bridge.guideComments(id);
    // An earlier read answered after a later one is older than what is shown: the web shell's answers come
    // on connections of their own, in no set order, and a comment read "waiting" could come after "sent".
    if (!result.ok || guideid.value !== id || ask !== asked) return;
    offered.value = result.value.offered;
    mine.value = result.value.mine;
  }

  async function settled<T>(result: Result<T>): Promise<Result<T>> {
    if (result.ok && guideid.value !== null) await load(guideid.value);
    return result;
  }

  const write = async (comment: NewComment) => settled(await bridge.writeComment(comment));
  const edit = async (id: string, text: string) => settled(await bridge.editComment({ id, text }));
  const remove = async (id: string) => settled(await bridge.deleteComment(id));

  return { guideid, offered, mine, load, write, edit, remove };
});
