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
