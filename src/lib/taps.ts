/**
 * The second click of a double tap: a gloved finger's bounce, or a double click. A control that ticks, or
 * that takes the place of the one just tapped, ignores it: one tap, one step. A click made by the keyboard
 * (Space, Enter) has no count (0), and a tap after a pause counts 1 again.
 */
export const secondTap = (event: MouseEvent): boolean => event.detail > 1;

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
