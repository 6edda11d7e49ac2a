import { describe, expect, it } from 'vitest';
import { inWords } from '../../src/lib/repair-words.ts';

describe("a repair's counts in words", () => {
  it("lists the technician's tables that had rows, not those with none, nor the library's own", () => {
    const restored = { work_sessions: 1, work_values: 5, conflicts: 0, quiz_attempts: 0, settings: 2, outbox: 4 };
    expect(inWords(restored)).toEqual(['1 work session', '5 step values', '4 actions waiting to be sent']);
  });
});
