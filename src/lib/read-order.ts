/** What the App API read, with the order of that read (electron/core/db/read-order.ts). */
interface Read {
  id: string;
  readOrder: number;
}

/**
 * A copy from an answer or an event, kept unless `held` has a later one. The web shell carries answers
 * and events on two connections: an outbox that sent a save at once told "sent" before the save's own
 * answer ("waiting") arrived, and the window then said "waiting" until the next change.
 */
export function keepLater<T extends Read>(held: Record<string, T>, copy: T): void {
  const mine = held[copy.id];
  if (!mine || mine.readOrder <= copy.readOrder) held[copy.id] = copy;
}

/** A whole list read afresh (whose these are now): each one already held stays when it is later. */
export function laterOf<T extends Read>(held: Record<string, T>, list: readonly T[]): Record<string, T> {
  return Object.fromEntries(
    list.map((copy) => {
      const mine = held[copy.id];
      return [copy.id, mine && mine.readOrder > copy.readOrder ? mine : copy];
    }),
  );
}
