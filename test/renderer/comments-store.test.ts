import { describe, expect, it } from 'vitest';
import type { GuideComments, MyComment, Result } from '../../electron/contract.ts';
import { withStandInBridge } from '../helpers/stand-in-bridge.ts';

// The comments store with a stand-in bridge whose answers come when the test says: the order the web
// shell's connections may give them. The store is the logic under test; the App API is not.
type Answer = (value: Result<GuideComments>) => void;
const answers: Answer[] = [];
const fakeBridge = {
  onEvent: () => () => undefined,
  guideComments: () => new Promise<Result<GuideComments>>((resolve) => answers.push(resolve)),
};

const comment = (unsent: boolean): MyComment => ({
  id: 'c1',
  guideid: 5,
  context: 'step',
  contextid: 3,
  parentid: null,
  text: 'Checked again online: 35 Nm on both units.',
  state: unsent ? 'waiting' : 'sent',
  unsent,
  commentid: unsent ? null : 77,
  writtenAt: 1_800_000_000,
  editableUntil: null,
});
const read = (unsent: boolean): Result<GuideComments> =>
  ({ ok: true, value: { offered: true, mine: [comment(unsent)] } }) as unknown as Result<GuideComments>;

const stores = withStandInBridge(
  fakeBridge,
  () => import('../../src/stores/comments.ts'),
  () => {
    answers.length = 0;
  },
);
const useCommentsStore = () => stores.module.useCommentsStore();

describe("the comments store's reads", () => {
  it('shows the last read asked, when an earlier one is answered after it', async () => {
    const store = useCommentsStore();
    const first = store.load(5); // asked after the write's answer: "waiting"
    const second = store.load(5); // asked once the outbox moved: "sent"
    answers[1]!(read(false));
    await second;
    expect(store.mine[0]!.unsent).toBe(false);
    answers[0]!(read(true));
    await first;
    expect(store.mine[0]!.unsent).toBe(false);
  });

  it('shows a read answered in order', async () => {
    const store = useCommentsStore();
    const first = store.load(5);
    answers[0]!(read(true));
    await first;
    expect(store.mine[0]!.unsent).toBe(true);
  });
});
