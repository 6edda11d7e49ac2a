import { describe, expect, it } from 'vitest';
import { ScannerKeys } from '../../src/lib/scanner-keys.ts';

/** Types `text` from `at`, a key every `gap` ms, then Enter `enterGap` ms later: what each key and the Enter said. */
function type(keys: ScannerKeys, text: string, at: number, gap: number, enterGap = gap) {
  const quick = [...text].map((char, i) => keys.key(char, at + i * gap));
  const read = keys.enter(at + (text.length - 1) * gap + enterGap);
  return { quick, read };
}

describe("a USB scanner's keys", () => {
  it('a burst then Enter is a read; its keys after the first are at its pace', () => {
    const { quick, read } = type(new ScannerKeys(), 'WO-6611', 0, 4);
    expect(read).toEqual({ code: 'WO-6611', again: false });
    expect(quick).toEqual([false, true, true, true, true, true, true]);
  });

  it("a person's keys and Enter are not a read, however short the code", () => {
    const keys = new ScannerKeys();
    expect(type(keys, 'WO-6611', 0, 140).read).toBeNull();
    expect(type(keys, 'WO-6611', 5_000, 140).quick.some(Boolean)).toBe(false);
    // Too short to tell, or Enter pressed well after a fast burst (a person's Enter after a paste, say).
    expect(type(keys, 'W6', 10_000, 4).read).toBeNull();
    expect(type(keys, 'WO-6611', 20_000, 4, 600).read).toBeNull();
  });

  it('a fast typist\'s "10mm", then Enter, is not a read: a key struck twice and the Enter are slower', () => {
    const keys = new ScannerKeys();
    for (const [char, at] of [
      ['1', 0],
      ['0', 45],
      ['m', 85],
      ['m', 170],
    ] as const)
      keys.key(char, at);
    expect(keys.enter(240)).toBeNull();
  });

  it('the same code read again at once is said again; after a while, or another code, is not', () => {
    const keys = new ScannerKeys();
    expect(type(keys, 'WO-6611', 0, 4).read!.again).toBe(false);
    expect(type(keys, 'WO-6611', 150, 4).read!.again).toBe(true);
    expect(type(keys, 'FL-07', 400, 4).read).toEqual({ code: 'FL-07', again: false });
    expect(type(keys, 'FL-07', 5_000, 4).read!.again).toBe(false);
  });

  it('keys, then Tab, then Enter at once are not a read (typed, then a button pressed)', () => {
    const keys = new ScannerKeys();
    for (const [i, char] of [...'1234'].entries()) keys.key(char, i);
    keys.other();
    expect(keys.enter(5)).toBeNull();
  });

  it('the same code after a Tab or a tap (another field) is read again on purpose', () => {
    const keys = new ScannerKeys();
    expect(type(keys, '4471', 0, 3).read!.again).toBe(false);
    keys.other();
    expect(type(keys, '4471', 300, 3).read!.again).toBe(false);
  });

  it('a cut (the app moved the keyboard) ends the burst, but the same code after it is still a double read', () => {
    const keys = new ScannerKeys();
    expect(type(keys, 'WO-6611', 0, 3).read!.again).toBe(false);
    for (const [i, char] of [...'WO-6'].entries()) keys.key(char, 100 + i);
    keys.cut();
    expect(keys.enter(105)).toBeNull();
    expect(type(keys, 'WO-6611', 300, 3).read!.again).toBe(true);
  });

  it('a new burst starts after a pause: the keys before it are not part of its code', () => {
    const keys = new ScannerKeys();
    keys.key('x', 0);
    expect(type(keys, 'PN4471882', 500, 3).read).toEqual({ code: 'PN4471882', again: false });
  });
});
