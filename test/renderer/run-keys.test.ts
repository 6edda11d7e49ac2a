import { describe, expect, it } from 'vitest';
import { runKeyOf, type RunKeyEvent } from '../../src/lib/run-keys.ts';

const press = (key: string, mods: Partial<RunKeyEvent> = {}): RunKeyEvent => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  repeat: false,
  ...mods,
});

describe("the run mode's keys", () => {
  it('moves with Alt and an arrow, saves with Ctrl+S, lists the keys with F1', () => {
    expect(runKeyOf(press('ArrowRight', { altKey: true }))).toBe('next');
    expect(runKeyOf(press('ArrowLeft', { altKey: true }))).toBe('previous');
    expect(runKeyOf(press('s', { ctrlKey: true }))).toBe('save');
    expect(runKeyOf(press('S', { metaKey: true }))).toBe('save');
    expect(runKeyOf(press('F1'))).toBe('help');
  });

  it('ignores what a barcode scanner or a brushing glove sends: bare letters, Enter, Tab, bare arrows', () => {
    for (const key of ['n', 'N', 'p', 's', 'Enter', 'Tab', 'ArrowRight', 'ArrowLeft', ' ', '?'])
      expect(runKeyOf(press(key))).toBeNull();
    expect(runKeyOf(press('Enter', { shiftKey: true }))).toBeNull();
  });

  it('leaves the text keys of a field alone: Ctrl+arrows, Shift+Alt+arrows, Ctrl+Shift+S', () => {
    expect(runKeyOf(press('ArrowRight', { ctrlKey: true }))).toBeNull();
    expect(runKeyOf(press('ArrowRight', { altKey: true, shiftKey: true }))).toBeNull();
    expect(runKeyOf(press('s', { ctrlKey: true, shiftKey: true }))).toBeNull();
  });

  it('does not move again while a key is held down (a repeat)', () => {
    expect(runKeyOf(press('ArrowRight', { altKey: true, repeat: true }))).toBeNull();
    expect(runKeyOf(press('s', { ctrlKey: true, repeat: true }))).toBeNull();
  });
});
