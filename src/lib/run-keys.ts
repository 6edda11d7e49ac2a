// The run mode's keys. A glove on a keyboard and a barcode scanner (it types letters, digits and Enter or
// Tab) hit bare keys by accident, so every key here needs a modifier the scanner never sends and a glove
// does not hold down while brushing another key: Alt with an arrow to move, Ctrl+S to save. F1 (and the "?"
// button) lists them. A held key repeats: a repeat never moves more than the first press did.

export type RunKey = 'next' | 'previous' | 'save' | 'help';

export interface RunKeyEvent {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  repeat: boolean;
}

/** The keys as the help overlay lists them. */
export const RUN_KEYS: readonly { action: RunKey; keys: string[]; what: string }[] = [
  { action: 'next', keys: ['Alt', '→'], what: 'Next step (the step is saved first)' },
  { action: 'previous', keys: ['Alt', '←'], what: 'Previous step (what you typed is saved first)' },
  { action: 'save', keys: ['Ctrl', 'S'], what: "Save this step's form" },
  { action: 'help', keys: ['F1'], what: 'This list of keys' },
];

/** The run mode's action a key press asks for, or null when it is none of them. */
export function runKeyOf(event: RunKeyEvent): RunKey | null {
  const { key, altKey, ctrlKey, metaKey, shiftKey } = event;
  if (key === 'F1' && !altKey && !ctrlKey && !metaKey) return 'help';
  if (event.repeat) return null;
  if (altKey && !ctrlKey && !metaKey && !shiftKey) {
    if (key === 'ArrowRight') return 'next';
    if (key === 'ArrowLeft') return 'previous';
  }
  if ((ctrlKey || metaKey) && !altKey && !shiftKey && key.toLowerCase() === 's') return 'save';
  return null;
}
