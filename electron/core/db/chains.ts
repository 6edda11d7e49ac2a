/**
 * What a chain of the outbox belongs to (a work session, a quiz attempt, a check for a second copy) and
 * what a revision pin is held by: `{type, id}`, stored as one string. This is the one place that string is
 * made and read: by the queue, by the SQL that matches chains, and by the views.
 *
 * A session's chain is stored as its id alone (as the first release stored it, so queued rows keep their
 * chains); every other chain, and every pin, as `type:id`. Session ids are UUIDs: they hold no colon.
 */
export interface ChainRef<T extends string = string> {
  type: T;
  id: string;
}

const BARE = 'session';

/** The stored chain of `ref`. */
export function chainKey(ref: ChainRef): string {
  return ref.type === BARE ? ref.id : `${ref.type}:${ref.id}`;
}

/** The chain a stored key names. */
export function chainOf(key: string): ChainRef {
  const colon = key.indexOf(':');
  return colon < 0 ? { type: BARE, id: key } : { type: key.slice(0, colon), id: key.slice(colon + 1) };
}

/** The SQL expression of the stored chain of a `type` whose id is in `column` (for SQL inside core/db only). */
export function chainKeySql(type: string, column: string): string {
  if (!/^[a-z]+$/.test(type)) throw new Error(`a chain type is lower-case letters: "${type}"`);
  return type === BARE ? column : `'${type}:' || ${column}`;
}

/** What a revision pin is held by, as stored (`revision_pins.reason`). */
export function pinKey(ref: ChainRef): string {
  return `${ref.type}:${ref.id}`;
}
