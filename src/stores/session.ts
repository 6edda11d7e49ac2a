import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type {
  AppError,
  AppStatus,
  ConnectPublicInput,
  ConnectWithTokenInput,
  Result,
  SignInInput,
  SwitchTechnicianInput,
  TechnicianEntry,
} from '../../electron/contract.ts';
import { madeBefore } from '../../electron/shared/told.ts';
import { useBridge } from '../bridge/index.ts';
import { adoptEarlierDrafts } from '../drafts/db.ts';
import { adoptEarlierQuizDrafts } from '../drafts/quiz-db.ts';
import { siteNow as siteNowWith } from '../lib/site-clock.ts';

/**
 * Which site we use, who works now (the current technician), who
 * else used this laptop, and whether the site can be reached.
 */
export const useSessionStore = defineStore('session', () => {
  const bridge = useBridge();
  const status = ref<AppStatus | null>(null);
  const technicians = ref<TechnicianEntry[]>([]);
  const busy = ref<null | 'demo' | 'signIn' | 'token' | 'public' | 'signOut' | 'switch'>(null);
  const error = ref<AppError | null>(null);
  /** A one-time word after connecting (which address answered), shown above the next screen. */
  const notice = ref<string | null>(null);
  /** Its words while it is shown in a dialog over the screen (App.vue), where they differ (the dialog has the keys). */
  const noticeInDialog = ref<string | null>(null);

  /** Someone works here, or a public site is read without an account. */
  const signedIn = computed(() => status.value?.user != null || status.value?.site?.anonymous === true);
  /** Whose drafts the window keeps and reads now (`site|userid`), or null when nobody works. */
  const technicianKey = computed(() => status.value?.technician?.key ?? null);
  /** Now on the site's clock, unix seconds (session times are on it); reactive to the offset learned. */
  const siteNow = (): number => siteNowWith(status.value?.siteClockOffset ?? 0);

  bridge.onEvent((event) => {
    if (event.name === 'status') take(event.payload);
    else if (event.name === 'network' && status.value) status.value = { ...status.value, network: event.payload };
  });

  // Drafts typed before technicians were recorded were the technician then signed in: they become theirs.
  watch(
    () => status.value?.technician,
    (technician) => {
      if (technician?.earlierDrafts)
        void Promise.all([adoptEarlierDrafts(technician.key), adoptEarlierQuizDrafts(technician.key)]).catch(
          () => undefined,
        );
    },
  );

  /** A status newer than the one shown (shared/told.ts): a read answered after a newer event is not taken. */
  function take(next: AppStatus): void {
    if (!madeBefore(next, status.value)) status.value = next;
  }

  async function run(kind: NonNullable<typeof busy.value>, call: () => Promise<Result<AppStatus>>): Promise<boolean> {
    busy.value = kind;
    error.value = null;
    try {
      const result = await call();
      if (result.ok) take(result.value);
      else error.value = result.error;
      return result.ok;
    } finally {
      busy.value = null;
    }
  }

  async function load(): Promise<void> {
    const result = await bridge.getStatus();
    if (result.ok) take(result.value);
    else error.value = result.error;
  }

  async function loadTechnicians(): Promise<void> {
    const result = await bridge.listTechnicians();
    if (result.ok) technicians.value = result.value;
    else error.value = result.error;
  }

  const connectDemo = () => run('demo', () => bridge.connectDemo());
  const signIn = (input: SignInInput) => run('signIn', () => bridge.signIn(input));
  const connectWithToken = (input: ConnectWithTokenInput) => run('token', () => bridge.connectWithToken(input));
  const connectPublic = (input: ConnectPublicInput) => run('public', () => bridge.connectPublic(input));
  const signOut = () => run('signOut', () => bridge.signOut());
  /** Stops a connect waiting for a site that does not answer; the connect then fails as `cancelled`. */
  const cancelConnect = async (): Promise<void> => void (await bridge.cancelConnect());
  const switchTechnician = (input: SwitchTechnicianInput) => run('switch', () => bridge.switchTechnician(input));
  const clearError = (): void => {
    error.value = null;
  };
  const setNotice = (text: string | null, inDialog: string | null = null): void => {
    notice.value = text;
    noticeInDialog.value = text === null ? null : inDialog;
  };

  return {
    status,
    technicians,
    busy,
    error,
    notice,
    noticeInDialog,
    setNotice,
    signedIn,
    technicianKey,
    siteNow,
    load,
    loadTechnicians,
    connectDemo,
    signIn,
    connectWithToken,
    connectPublic,
    cancelConnect,
    signOut,
    switchTechnician,
    clearError,
  };
});
