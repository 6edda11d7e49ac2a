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
 * session is not left for it), and so does a guide's printed link scanned into a field (a work order, a tag:
 * never its text; in a step's field it is said, not typed); the same code read again at once is taken back
 * out of the fields it went into.
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
      // On a button or a check box: a scanner's keys press nothing (a Space chose a step). Not on a dropdown,
      // whose type-ahead a person's quick keys use ("we": Wet, not Worn): a read there is undone at its Enter.
      if (quick && !typedField(target) && !(target instanceof HTMLSelectElement)) event.preventDefault();
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
    // Into a field, a code is its text (a part number into its field; Search opens codes itself), unless it is a
    // guide's printed link: never a work order, a tag or a step's answer (each was taken, the first two sent).
    const place = { siteUrl: session.status?.site?.url ?? null, appOrigin: window.location.origin };
    const searchBox = target instanceof Element && target.closest('[role="search"]') !== null;
    if (typedField(target) && (searchBox || !isGuideLink(read.code, place))) return;
    stop(event);
    for (const [field, value] of touched) restore(field, value);
    if (typedField(target) && (runMode.value || (target as Element).closest('[data-testid="step-form"]'))) {
      session.setNotice(
        `The scanner read a link to a guide (${read.code}): a step's field does not take it, and it was not typed. ` +
          'To open the guide, scan it in the library or in Search.',
      );
      return;
    }
    if (runMode.value) {
      // A dialog open over the session (its keys listed) holds the keyboard: the field is chosen once it is closed.
      // The words follow where the notice is: in the dialog, or over the step once it has closed (they told to
      // close a window already closed).
      const said = (choose: string) =>
        `The scanner read “${read.code}” with no field chosen: it was not typed anywhere. ` +
        `${choose}, then scan again.`;
      session.setNotice(said('Choose the field'), said('Close this window, choose the field'));
      return;
    }
    // The scanner's own dialog (or any other) closes before what the code names opens.
    for (const dialog of document.querySelectorAll('dialog[open]')) (dialog as HTMLDialogElement).close();
    void openCode(read.code);
  }

  // The keyboard moved to a button between the keys and an Enter (a program's focus: no person is that
  // quick): the Enter is the button's. Moved to a field, the keys go on (a second read into a new session).
  function onFocusin(event: FocusEvent): void {
    if (!typedField(event.target)) keys.cut();
  }
  // A person's tap or click between two reads of one code: two labels alike, each into its own field.
  const onPointerdown = () => keys.other();

  onMounted(() => {
    window.addEventListener('keydown', onKeydown, true);
    window.addEventListener('focusin', onFocusin, true);
    window.addEventListener('pointerdown', onPointerdown, true);
  });
  onBeforeUnmount(() => {
    window.removeEventListener('keydown', onKeydown, true);
    window.removeEventListener('focusin', onFocusin, true);
    window.removeEventListener('pointerdown', onPointerdown, true);
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
