/**
 * The second click of a double tap: a gloved finger's bounce, or a double click. A control that ticks, or
 * that takes the place of the one just tapped, ignores it: one tap, one step. A click made by the keyboard
 * (Space, Enter) has no count (0), and a tap after a pause counts 1 again.
 */
export const secondTap = (event: MouseEvent): boolean => event.detail > 1;
