/**
 * The second click of a double tap: a gloved finger's bounce, or a double click. No control of the app sees
 * it (oneTapOneStep): one tap, one step. A click made by the keyboard (Space, Enter) has no count (0), and a
 * tap after a pause counts 1 again.
 */
const secondTap = (event: MouseEvent): boolean => event.detail > 1;

/** How long after a tap its bounce may come: Chromium counts a second click as one within 500 ms. */
const BOUNCE_MS = 600;
/** How far from a tap its bounce may land (Chromium's double click allows a few pixels). */
const BOUNCE_PX = 8;

/**
 * Where a double click keeps its meaning: text typed in, whose words it selects. Not a text field that opens
 * a list when clicked (a quiz's dropdown: the list opened, and the bounce on its filter field shut it).
 */
const TEXT_ENTRY = [
  'textarea',
  '[contenteditable]',
  'input:not([type])',
  ...['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'time', 'datetime-local'].map(
    (type) => `input[type="${type}"]`,
  ),
]
  .map((field) => `${field}:not([role="combobox"])`)
  .join(', ');

/**
 * One tap, one step, on every control of the app (main.ts installs it once): the bounce of a glove's tap
 * neither moves the focus (its press) nor clicks (its click), wherever it lands. Each control guarded on
 * its own, a walk found the next one that was not: one tap on Larger text grew the status bar, and its
 * bounce pressed Sign out, now under the finger; a technician's row on Switch technician opened and
 * closed; a filter, a category's arrow, a scope's category and Advanced each flipped twice. So no control
 * guards itself (a dialog's Close, the session's buttons, the checks, the zoom view's buttons did). A double
 * click's own event (`dblclick`, the zoom view's) still comes, and in the text field its first click was in it still
 * selects a word.
 */
export function oneTapOneStep(target: Window): void {
  // Where the last tap landed: its time, its place, the text field it was in (null: none).
  let lastTap: { at: number; x: number; y: number; field: Element | null } = {
    at: Number.NEGATIVE_INFINITY,
    x: 0,
    y: 0,
    field: null,
  };
  const fieldOf = (event: Event): Element | null =>
    event.target instanceof Element ? event.target.closest(TEXT_ENTRY) : null;
  // A double click selects a word only in the text field its first click was in: a tap on a step in the Steps
  // drawer closed it, and its bounce landed in the step's field beneath and selected a word of its saved value,
  // typed over by the next key.
  const ownField = (event: Event): boolean => fieldOf(event) !== null && fieldOf(event) === lastTap.field;
  const bounce = (event: MouseEvent): boolean => secondTap(event) && !ownField(event);
  const noPress = (event: MouseEvent) => {
    if (bounce(event)) event.preventDefault();
  };
  target.addEventListener('mousedown', noPress, { capture: true });
  // A control that acts on the pointer's press (a quiz's dropdown opened on the tap's click, and shut on its
  // bounce's press): a press where a tap just ended, within a bounce's time, goes no further. Its count is
  // not known yet (a pointer event has none), so time and place say it. Not on what draws (a signature, a
  // picture dragged): each press there is a stroke of its own.
  target.addEventListener(
    'pointerdown',
    (event) => {
      const near = Math.abs(event.clientX - lastTap.x) <= BOUNCE_PX && Math.abs(event.clientY - lastTap.y) <= BOUNCE_PX;
      const own =
        ownField(event) || (event.target instanceof Element && event.target.closest('canvas, [data-own-presses]'));
      if (!(event.timeStamp - lastTap.at < BOUNCE_MS && near && !own)) return;
      event.stopImmediatePropagation();
      // A disabled control takes no press (no mousedown for the guard above), yet the press still takes the focus
      // off to the page's body: the review's Sign off and finish, off, under the step bar's Finish just tapped.
      if (event.target instanceof Element && event.target.closest(':disabled')) event.preventDefault();
    },
    { capture: true },
  );
  target.addEventListener(
    'click',
    (event) => {
      const bounced = bounce(event);
      lastTap = { at: event.timeStamp, x: event.clientX, y: event.clientY, field: fieldOf(event) };
      if (!bounced) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    { capture: true },
  );
}
