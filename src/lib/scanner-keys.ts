import { SCANNER_KEY_GAP_MS, typedByScanner } from './scan-code.ts';

/** A pause this long between two keys ends a burst: the keys after it are another code's (or a person's). */
export const SCAN_ENTER_GAP_MS = 100;
/** The same code read again within this long is the scanner reading one label twice (or a second trigger). */
export const DOUBLE_READ_MS = 2_000;

/** A code a scanner typed, ended by its Enter; `again`: the same code read within DOUBLE_READ_MS before. */
export interface ScannerRead {
  code: string;
  again: boolean;
}

/**
 * A USB barcode scanner is a keyboard: the keys of a code in a burst, then Enter. Told every printable key
 * and every Enter (their event times), it says which keys come at a scanner's pace and which Enter ends
 * a code so typed. A person's keys, however quick, never make a read (typedByScanner).
 */
export class ScannerKeys {
  #text = '';
  #times: number[] = [];
  #last: { code: string; at: number } | null = null;

  /** A printable key: true when it comes at a scanner's pace after the key before (inside a burst). */
  key(char: string, at: number): boolean {
    const before = this.#times.at(-1);
    const quick = before !== undefined && at - before < SCANNER_KEY_GAP_MS;
    if (before === undefined || at - before >= SCAN_ENTER_GAP_MS) [this.#text, this.#times] = ['', []];
    this.#text += char;
    this.#times.push(at);
    return quick;
  }

  /**
   * Another key (Tab, an arrow) or a person's press: the keys before it and an Enter after it are not one
   * code, and the same code read after it is read again on purpose (two labels alike), not a double read.
   */
  other(): void {
    this.cut();
    this.#last = null;
  }

  /** The keyboard moved by the app's doing: the keys before and an Enter after are not one code. */
  cut(): void {
    [this.#text, this.#times] = ['', []];
  }

  /** Enter: the code a scanner typed before it, or null when the keys before were a person's. */
  enter(at: number): ScannerRead | null {
    const [text, times] = [this.#text, this.#times];
    [this.#text, this.#times] = ['', []];
    // The Enter is the scanner's suffix, at the pace of its keys (scan-code.ts says what tells a person's apart).
    if (!typedByScanner(times, text.length, at)) return null;
    const code = text.trim();
    const again = this.#last !== null && this.#last.code === code && at - this.#last.at <= DOUBLE_READ_MS;
    this.#last = { code, at };
    return { code, again };
  }
}
