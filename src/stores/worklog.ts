import { defineStore } from 'pinia';
import { computed, ref, shallowReactive } from 'vue';
import type {
  AttachFileInput,
  Result,
  SaveStepDataInput,
  SignOffInput,
  StartSessionInput,
  WorkSession,
  WorkTransition,
} from '../../electron/contract.ts';
import { useBridge } from '../bridge/index.ts';
import { keepLater, laterOf } from '../lib/read-order.ts';

/**
 * Work sessions on this computer, kept fresh by the `session` event. Commands answer with the App API's
 * Result so a view can show an `invalid_input` message beside the field it names.
 */
export const useWorklogStore = defineStore('worklog', () => {
  const bridge = useBridge();
  const byId = ref<Record<string, WorkSession>>({});
  const loaded = ref(false);

  /**
   * The order sessions were made, as far as this window knows (larger: made later): what orders two started
   * in the same second, `startedAt` being whole seconds. A list's answer (the core's order, the last made
   * first) sets it for the sessions it names; a session met otherwise (started here, told by an event) is
   * the last made. Without it, four trucks started in one second stood in the order the window met them.
   */
  const made = shallowReactive(new Map<string, number>());
  let madeCount = 0;
  const asListed = (list: readonly WorkSession[]): void => {
    for (let i = list.length - 1; i >= 0; i--) made.set(list[i]!.id, ++madeCount);
  };

  /** A copy from an answer or an event, unless a later one is held (WorkSession.readOrder). */
  const keep = (session: WorkSession): void => {
    if (!made.has(session.id)) made.set(session.id, ++madeCount);
    keepLater(byId.value, session);
  };

  bridge.onEvent((event) => {
    if (event.name === 'session') keep(event.payload);
  });

  function take(result: Result<WorkSession>): Result<WorkSession> {
    if (result.ok) keep(result.value);
    return result;
  }

  const sessions = computed(() =>
    Object.values(byId.value).sort(
      (a, b) => b.startedAt - a.startedAt || (made.get(b.id) ?? 0) - (made.get(a.id) ?? 0),
    ),
  );

  /** The technician's sessions: every open one, and the `ended` newest ended (all when not given). */
  async function loadAll(ended?: number): Promise<Result<WorkSession[]>> {
    const result = await bridge.listSessions(ended === undefined ? {} : { ended });
    if (result.ok) {
      asListed(result.value);
      byId.value = laterOf(byId.value, result.value);
      loaded.value = true;
    }
    return result;
  }

  /** A guide's open sessions of the technician (what its page shows), none of its ended ones. */
  async function loadGuide(guideid: number): Promise<Result<WorkSession[]>> {
    const result = await bridge.listSessions({ guideid, ended: 0 });
    if (result.ok) {
      asListed(result.value);
      for (const s of result.value) keep(s);
    }
    return result;
  }

  const get = async (id: string) => take(await bridge.getSession(id));
  const start = async (input: StartSessionInput) => take(await bridge.startSession(input));
  const transition = async (sessionId: string, to: WorkTransition, signOff?: SignOffInput) =>
    take(await bridge.transitionSession({ sessionId, transition: to, ...(signOff ? { signOff } : {}) }));
  const save = async (input: SaveStepDataInput) => take(await bridge.saveStepData(input));
  const attach = async (input: AttachFileInput) => take(await bridge.attachFile(input));
  const assume = async (entryid: number) => take(await bridge.assumeSession(entryid));
  /** Whether the time a session ran with Fieldguide closed was work (not: a pause over it is queued). */
  const answerRanUnwatched = async (sessionId: string, work: boolean) =>
    take(await bridge.answerRanUnwatched({ sessionId, work }));
  /** A session's attached files that cannot be read back as saved (none when it cannot be asked). */
  const unreadableFiles = async (sessionId: string) => {
    const files = await bridge.checkAttachments(sessionId);
    return files.ok ? files.value : [];
  };
  // Questions to the site, one at a time: while a site takes its time (a hanging one, until it is found
  // away), each question waits on one of the browser's six connections to the web shell, and a technician
  // walking between guides asked one per visit: five held every connection the event stream left, and the
  // app's own answers (a session started, a guide opened) waited behind them. A question waits here for
  // the one on its way; asked again while it waits, it is the same question. One already sent is never
  // shared: a screen that asks again (Try again, the site back) wants the site's answer from now.
  const waiting = new Map<string, Promise<unknown>>();
  let siteTurn: Promise<unknown> = Promise.resolve();
  function askSite<T>(key: string, ask: () => Promise<T>): Promise<T> {
    const queued = waiting.get(key);
    if (queued) return queued as Promise<T>;
    const answer = siteTurn.then(() => {
      waiting.delete(key);
      return ask();
    });
    waiting.set(key, answer);
    siteTurn = answer.catch(() => undefined);
    return answer;
  }
  /** Other technicians' open sessions of a guide's work order on this computer (none when it cannot be asked). */
  const othersOpen = async (guideid: number, workorderid: string) => {
    const result = await bridge.othersOpen({ guideid, workorderid });
    return result.ok ? result.value : [];
  };
  /** Others' suspended sessions of a guide: asks the site, so it needs the network. */
  const suspended = (guideid: number) => askSite(`suspended ${guideid}`, () => bridge.listSuspended(guideid));
  /** What others handed over, across guides: from the site, or as this computer last learned it. */
  const handedOver = () => askSite('handed over', () => bridge.listHandedOver());

  /** Another technician works now: nothing of the previous one's sessions stays in the window. */
  function forget(): void {
    byId.value = {};
    loaded.value = false;
    // Nor their questions to the site: the next technician's are asked anew, in their name.
    waiting.clear();
    siteTurn = Promise.resolve();
  }

  return {
    byId,
    sessions,
    loaded,
    forget,
    loadAll,
    loadGuide,
    get,
    start,
    transition,
    save,
    attach,
    assume,
    answerRanUnwatched,
    unreadableFiles,
    othersOpen,
    suspended,
    handedOver,
  };
});
