import { describe, expect, it } from 'vitest';
import type { ApiTransport } from '../../electron/core/api/transport.ts';
import { Priority, unheldTime, yielding } from '../../electron/core/sync/priority.ts';

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

// Issue 29: the lanes (pool.ts) read a request's time as the link's queue; a request the sync made while
// a guide kept now held it waited for the hold, and that wait is no queue.
describe("the time of the sync's requests, as its lanes read it", () => {
  it('is told for a request made with nobody holding the sync, and not for one made across a hold', async () => {
    const priority = new Priority();
    const site = { request: () => Promise.resolve('answer') } as unknown as ApiTransport;
    const sync = yielding(site, priority);
    const free = await unheldTime(priority, () => sync.request('GET', '/guides/1'));
    expect(free).toEqual({ value: 'answer', ms: expect.any(Number) });
    const release = priority.hold();
    const held = unheldTime(priority, () => sync.request('GET', '/guides/2'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(await held).toEqual({ value: 'answer', ms: undefined });
    // A hold that began and ended while a request was out: its time may count the hold's doing too.
    let answer: (value: string) => void = () => {};
    const slow = { request: () => new Promise<string>((resolve) => (answer = resolve)) } as unknown as ApiTransport;
    const out = unheldTime(priority, () => yielding(slow, priority).request('GET', '/guides/3'));
    await Promise.resolve();
    priority.hold()();
    answer('late');
    expect(await out).toEqual({ value: 'late', ms: undefined });
  });
});
