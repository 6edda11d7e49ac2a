import { storeToRefs } from 'pinia';
import { onBeforeUnmount, onMounted } from 'vue';
import { isGuideLink } from '../../lib/scan-code.ts';
import { ScannerKeys } from '../../lib/scanner-keys.ts';
import { useRunModeStore } from '../../stores/run-mode.ts';
import { useSessionStore } from '../../stores/session.ts';
import { useOpenCode } from './use-open-code.ts';

/** Keys a scanner sends inside a code (Shift for its capitals): they do not end its burst. */
const MODIFIERS = new Set(['Shift', 'CapsLock', 'Control', 'Alt', 'AltGraph', 'Meta']);
type Valued = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const TYPED_INTO = new Set(['text', 'search', 'email', 'number', 'tel', 'url', 'password', '']);
/** A field a code is typed into: the scanner's keys are its text there (a part number into its field). */
const typedField = (target: EventTarget | null): boolean =>
  target instanceof HTMLTextAreaElement ||
  (target instanceof HTMLInputElement && TYPED_INTO.has(target.type)) ||
  (target instanceof HTMLElement && target.isContentEditable);
const valued = (target: EventTarget | null): target is Valued =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;

/**
 * A USB barcode scanner types where the keyboard is (a walk's scanning day): its Enter pressed the focused
 * Resume after a Pause, closed the scanner's own dialog, switched Larger text on in the keys' help; on the
 * library it did nothing; and the second read of a label landed in the field the new session had just
 * focused, then went to the site joined to the next code ("WO-6621FL-07"). Watching every key first
 * (lib/scanner-keys.ts): a scanner's keys and Enter never press a button or pick a choice; a code scanned
 * with no field to type into opens what it names, as in Search (in a work session it is said unused: the
 * session is not left for it); the same code read again at once is taken back out of the fields it went into.
 */
export function useScannerKeys(): void {
  const keys = new ScannerKeys();
  const session = useSessionStore();
  const { signedIn } = storeToRefs(session);
  const { active: runMode } = storeToRefs(useRunModeStore());
  const openCode = useOpenCode();
  /** The fields the keys of the current burst went to, with their values before it. */
  const before = new Map<Valued, string>();

  function onKeydown(event: KeyboardEvent): void {
    if (!signedIn.value || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    const { target } = event;
    if (event.key.length === 1) {
      const quick = keys.key(event.key, event.timeStamp);
      if (!quick) before.clear();
      if (valued(target) && !before.has(target)) before.set(target, target.value);
      // On a button, a choice, a check box: a scanner's keys press or pick nothing (a Space chose a step).
      if (quick && !typedField(target)) event.preventDefault();
      return;
    }
    if (MODIFIERS.has(event.key)) return;
    if (event.key !== 'Enter') return keys.other();
    const read = keys.enter(event.timeStamp);
    const touched = [...before];
    before.clear();
    if (!read) return;
    if (read.again) {
      stop(event);
      for (const [field, value] of touched) restore(field, value);
      session.setNotice(`The scanner read “${read.code}” twice: the second read was left out.`);
      return;
    }
    if (typedField(target)) {
      // A guide's printed code scanned into a step's field: not its answer (it was saved, and sent).
      const place = { siteUrl: session.status?.site?.url ?? null, appOrigin: window.location.origin };
      if (!(target as Element).closest('[data-testid="step-form"]') || !isGuideLink(read.code, place)) return;
      stop(event);
      for (const [field, value] of touched) restore(field, value);
      session.setNotice(
        `The scanner read a link to a guide (${read.code}): a step's field does not take it, and it was not typed. ` +
          'To open the guide, scan it in the library or in Search.',
      );
      return;
    }
    stop(event);
    for (const [field, value] of touched) restore(field, value);
    if (runMode.value) {
      session.setNotice(
        `The scanner read “${read.code}” with no field chosen: it was not typed anywhere. ` +
          'Choose the field, then scan again.',
      );
      return;
    }
    // The scanner's own dialog (or any other) closes before what the code names opens.
    for (const dialog of document.querySelectorAll('dialog[open]')) (dialog as HTMLDialogElement).close();
    void openCode(read.code);
  }

  // The keyboard moved to a button between the keys and an Enter (a program's focus: no person is that
  // quick): the Enter is the button's. Moved to a field, the keys go on (a second read into a new session).
  function onFocusin(event: FocusEvent): void {
    if (!typedField(event.target)) keys.other();
  }

  onMounted(() => {
    window.addEventListener('keydown', onKeydown, true);
    window.addEventListener('focusin', onFocusin, true);
  });
  onBeforeUnmount(() => {
    window.removeEventListener('keydown', onKeydown, true);
    window.removeEventListener('focusin', onFocusin, true);
  });
}

function stop(event: KeyboardEvent): void {
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** A field given back its value from before the burst, told as typing is (v-model, drafts). */
function restore(field: Valued, value: string): void {
  if (field.value === value) return;
  field.value = value;
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}
