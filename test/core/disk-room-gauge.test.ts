import { describe, expect, it } from 'vitest';
import { roomGauge } from '../../electron/core/library/budget.ts';

const MB = 1024 * 1024;

describe("the disk's room as the media phase asks it", () => {
  it('reads the disk once a while when far from the end, less what was stored since', () => {
    let reads = 0;
    let now = 0;
    let stored = 0;
    const gauge = roomGauge(
      () => (reads++, 10_000 * MB),
      () => stored,
      () => now,
    );
    expect(gauge()).toBe(10_000 * MB);
    stored += 3 * MB;
    now += 100;
    expect(gauge()).toBe(9_997 * MB);
    expect(reads).toBe(1);
    // The reading is old: the disk is read again (what others wrote counts then).
    now += 200;
    gauge();
    expect(reads).toBe(2);
  });

  it('near the end every question reads the disk', () => {
    let reads = 0;
    let room = 300 * MB;
    let stored = 0;
    const gauge = roomGauge(
      () => (reads++, room),
      () => stored,
      () => 0,
    );
    gauge();
    // 60 MB stored: the estimate (240 MB) is near the end, so the disk is read, and says what it has.
    stored += 60 * MB;
    room = 100 * MB;
    expect(gauge()).toBe(100 * MB);
    expect(gauge()).toBe(100 * MB);
    expect(reads).toBe(3);
  });
});
