import { describe, expect, it } from 'vitest';
import { Priority } from '../../electron/core/sync/priority.ts';

// Issue 29: while a guide the technician needs now is kept, the running sync asks nothing new of the site.
describe('the priority of a guide needed now over the running sync', () => {
  it('holds the sync back until every holder has released, then lets it go at once', async () => {
    const priority = new Priority();
    const order: string[] = [];
    await priority.clear();
    order.push('free');
    const first = priority.hold();
    const second = priority.hold();
    const waiting = priority.clear().then(() => order.push('sync goes on'));
    first();
    first(); // a second release of the same holder changes nothing
    await Promise.resolve();
    order.push('one released');
    expect(priority.held).toBe(true);
    second();
    await waiting;
    expect(order).toEqual(['free', 'one released', 'sync goes on']);
    expect(priority.held).toBe(false);
  });
});
