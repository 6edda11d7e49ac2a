import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHANGE_ANSWERS,
  CHANGE_SECONDS,
  JUMP_SECONDS,
  ServerClock,
} from '../../electron/core/connection/server-clock.ts';
import type { Store } from '../../electron/core/db/store.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { openTestStore } from '../helpers/store.ts';

// The wall clock (`wall`) and the monotonic clock (`mono`) are moved by hand; the site's time is `site`.
const HOUR = 3_600_000;
let tmp: ReturnType<typeof makeTempDir>;
let store: Store;
let wall: number;
let mono: number;
let clock: ServerClock;
const SITE_AT_START = 1_800_000_000;

function pass(ms: number): void {
  wall += ms;
  mono += ms;
}

beforeEach(() => {
  tmp = makeTempDir('server-clock');
  store = openTestStore(tmp.dir);
  wall = SITE_AT_START * 1000 + 30_000; // the laptop is 30 s fast
  mono = 5_000;
  clock = new ServerClock(
    store.settings,
    () => wall,
    () => mono,
  );
  clock.observe(SITE_AT_START);
});
afterEach(() => {
  store.close();
  tmp.remove();
});

describe('the server clock', () => {
  it("dates actions on the site's clock, learned from its answers", () => {
    pass(60_000);
    expect(clock.actedAt()).toBe(SITE_AT_START + 60);
    expect(clock.siteNow()).toBe(SITE_AT_START + 60);
  });

  it('does not trust the offset after the wall clock is set back: the monotonic clock carries the site time on', () => {
    pass(60_000);
    wall -= 2 * HOUR;
    pass(60_000);
    expect(clock.actedAt()).toBe(SITE_AT_START + 120);
  });

  it(
    're-dates an action stamped after the clock was set a day forward, ' +
      'once the site answers after it was corrected',
    () => {
      pass(60_000);
      wall += 24 * HOUR;
      const stamp = clock.stamp();
      clock.remember(1, stamp);
      expect(stamp.at).toBe(SITE_AT_START + 60 + 86_400); // a forward jump looks like a sleep: provisional
      expect(clock.redate(1)).toBeNull();
      pass(60_000);
      wall -= 24 * HOUR; // corrected
      pass(60_000);
      clock.observe(SITE_AT_START + 180);
      expect(clock.redate(1)).toBe(SITE_AT_START + 60);
    },
  );

  it('takes a small difference between the two clocks as drift, not a jump', () => {
    pass(60_000);
    wall += (JUMP_SECONDS - 5) * 1000;
    clock.remember(2, clock.stamp());
    expect(clock.redate(2)).toBe(SITE_AT_START + 60 + JUMP_SECONDS - 5);
  });

  it('moves the offset on a consistent change of the site clock, and keeps it for the next start', () => {
    for (let i = 0; i < CHANGE_ANSWERS; i++) {
      pass(CHANGE_SECONDS * 500);
      clock.observe(SITE_AT_START + 60 + 3600 + i * (CHANGE_SECONDS / 2));
    }
    const siteNow = SITE_AT_START + 60 + 3600 + (CHANGE_ANSWERS - 1) * (CHANGE_SECONDS / 2);
    expect(clock.actedAt()).toBe(siteNow);
    const next = new ServerClock(
      store.settings,
      () => wall,
      () => 0,
    );
    expect(next.actedAt()).toBe(siteNow);
    expect(next.siteNow()).toBeNull();
  });

  it('tells the offset a window counts running sessions with, each time it moves, and only then', () => {
    const told: number[] = [];
    clock.onOffset((offset) => told.push(offset));
    expect(clock.offset()).toBe(-30);
    pass(60_000);
    clock.observe(SITE_AT_START + 60);
    expect(told).toEqual([]);
    for (let i = 0; i < CHANGE_ANSWERS; i++) {
      pass(CHANGE_SECONDS * 500);
      clock.observe(SITE_AT_START + 60 + 3600 + (i + 1) * (CHANGE_SECONDS / 2));
    }
    expect(told).toEqual([3600 - 30]);
    // The wall clock set back an hour: the site's time goes on, so the offset grows by the hour.
    wall -= HOUR;
    pass(1000);
    expect(clock.offset()).toBe(2 * 3600 - 30);
    expect(told).toEqual([3600 - 30, 2 * 3600 - 30]);
  });

  it('does not follow answers of a node whose clock is an hour off while the site keeps answering on its own', () => {
    for (let i = 1; i <= 20; i++) {
      pass(10_000);
      clock.observe(SITE_AT_START + 10 * i + (i % 2 === 0 ? 3600 : 0));
    }
    expect(clock.actedAt()).toBe(SITE_AT_START + 200);
    expect(clock.siteNow()).toBe(SITE_AT_START + 200);
  });

  it('does not move the offset on a few answers in a row from the other node, nor on many within moments', () => {
    pass(10_000);
    for (let i = 0; i < 10; i++) clock.observe(SITE_AT_START + 10 + 3600);
    expect(clock.actedAt()).toBe(SITE_AT_START + 10);
  });

  it('learns the site clock at once after the monotonic clock showed a jump of the wall clock', () => {
    pass(60_000);
    wall += 24 * HOUR;
    clock.observe(SITE_AT_START + 60 + 3600);
    expect(clock.actedAt()).toBe(SITE_AT_START + 60 + 3600);
  });

  it('keeps for the next start the offset carried through a clock set back, not the day-old one it learned', () => {
    // A walk set the laptop a day forward with Fieldguide open (the site's answer taught it "a day behind"),
    // then back, then closed it: the next start dated everything a day early until the site answered.
    pass(60_000);
    wall += 24 * HOUR;
    pass(60_000);
    clock.observe(SITE_AT_START + 120);
    expect(clock.actedAt()).toBe(SITE_AT_START + 120);
    wall -= 24 * HOUR;
    pass(60_000);
    expect(clock.actedAt()).toBe(SITE_AT_START + 180);
    const next = new ServerClock(
      store.settings,
      () => wall,
      () => 0,
    );
    expect(next.actedAt()).toBe(SITE_AT_START + 180);
  });
});
