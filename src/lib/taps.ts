/**
 * The second click of a double tap: a gloved finger's bounce, or a double click. A control that ticks, or
 * that takes the place of the one just tapped, ignores it: one tap, one step. A click made by the keyboard
 * (Space, Enter) has no count (0), and a tap after a pause counts 1 again.
 */
export const secondTap = (event: MouseEvent): boolean => event.detail > 1;

/** Where a double click keeps its meaning: text typed in, whose words it selects. */
const TEXT_ENTRY = [
  'textarea',
  '[contenteditable]',
  'input:not([type])',
  ...['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'time', 'datetime-local'].map(
    (type) => `input[type="${type}"]`,
  ),
].join(', ');

/**
 * One tap, one step, on every control of the app (main.ts installs it once): the bounce of a glove's tap
 * neither moves the focus (its press) nor clicks (its click), wherever it lands. Each control guarded on
 * its own, a walk found the next one that was not: one tap on Larger text grew the status bar, and its
 * bounce pressed Sign out, now under the finger; a technician's row on Switch technician opened and
 * closed; a filter, a category's arrow, a scope's category and Advanced each flipped twice. A double
 * click's own event (`dblclick`, the zoom view's) still comes, and in a text field it still selects a word.
 */
export function oneTapOneStep(target: Window): void {
  const bounce = (event: MouseEvent): boolean =>
    secondTap(event) && !(event.target instanceof Element && event.target.closest(TEXT_ENTRY));
  const noPress = (event: MouseEvent) => {
    if (bounce(event)) event.preventDefault();
  };
  target.addEventListener('mousedown', noPress, { capture: true });
  target.addEventListener(
    'click',
    (event) => {
      if (!bounce(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    },
    { capture: true },
  );
}

/**
 * For a link a glove's bounce may land on once the tap before it moved the page (`@click.capture`): its
 * second click is not followed (the router leaves a click whose default is prevented alone).
 */
export function ignoreSecondTap(event: MouseEvent): void {
  if (secondTap(event)) event.preventDefault();
}

/** How long after a tap its bounce may come: Chromium counts a second click as one within 500 ms. */
const BOUNCE_MS = 600;

/**
 * For a control that takes itself away under the finger (a dialog's Close): the bounce of its tap, which
 * lands on whatever the page shows beneath (the status chip, Scan: found by a walk), is swallowed, its
 * press too (so the focus given back stays where it was put). Call it from the tap's click.
 */
export function swallowBounce(): void {
  const swallow = (event: MouseEvent) => {
    if (!secondTap(event)) return;
    event.preventDefault();
    event.stopPropagation();
  };
  const kinds = ['mousedown', 'mouseup', 'click', 'dblclick'] as const;
  for (const kind of kinds) window.addEventListener(kind, swallow, { capture: true });
  setTimeout(() => {
    for (const kind of kinds) window.removeEventListener(kind, swallow, { capture: true });
  }, BOUNCE_MS);
}

/** Closes a dialog from its own button, the tap's bounce swallowed (it fell on what the dialog covered). */
export function closeWithoutBounce(dialog: HTMLDialogElement | null | undefined): void {
  swallowBounce();
  dialog?.close();
}
