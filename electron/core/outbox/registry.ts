import type { ChainRef } from '../db/chains.ts';
import type { OutboxRow } from '../db/repos/outbox-repo.ts';
import type { AnyKind, Read, ReadAction } from './action-kind.ts';

/**
 * What a feature registers with the outbox: its kinds, what their handlers and hooks need (its repositories,
 * its files), the chain types its actions go in, and how its views learn that one of its chains moved.
 */
export interface OutboxFeature<D> {
  chains: readonly string[];
  actions: readonly AnyKind<D>[];
  deps: D;
  /** One of its chains was sent, refused, set aside or discarded; `current`: who works now (or nobody). */
  moved?: (chain: ChainRef, current: number | null) => void;
  /**
   * The technician discarded one of its failed actions: what goes with it (in the discard's transaction,
   * the row removed), such as the values that refer to a file whose upload was discarded.
   */
  discarded?: (row: OutboxRow) => void;
}

/** A registered kind with its feature's deps bound: reads a stored row into what the runner and the view call. */
export interface BoundKind {
  readonly name: string;
  read(row: OutboxRow): Read<ReadAction>;
}

/** The kinds the features registered, by their stored names, and who owns each chain type. */
export class ActionRegistry {
  readonly #kinds = new Map<string, BoundKind>();
  readonly #moved = new Map<string, NonNullable<OutboxFeature<unknown>['moved']>>();
  readonly #discarded = new Map<string, NonNullable<OutboxFeature<unknown>['discarded']>>();

  register<D>(feature: OutboxFeature<D>): void {
    for (const kind of feature.actions) {
      if (this.#kinds.has(kind.name)) throw new Error(`The outbox action "${kind.name}" is registered twice.`);
      const deps = feature.deps;
      this.#kinds.set(kind.name, { name: kind.name, read: (row) => kind.read(row, deps) });
      if (feature.discarded) this.#discarded.set(kind.name, feature.discarded);
    }
    for (const type of feature.chains) {
      if (this.#moved.has(type)) throw new Error(`The outbox chain type "${type}" is registered twice.`);
      this.#moved.set(type, feature.moved ?? (() => {}));
    }
  }

  /** The kind of a stored row, or null: a kind no feature registered (a newer version's, a damaged row). */
  kind(name: string): BoundKind | null {
    return this.#kinds.get(name) ?? null;
  }

  has(name: string): boolean {
    return this.#kinds.has(name);
  }

  /** Tells the feature whose kind a discarded row is (inside the discard's transaction). */
  discarded(row: OutboxRow): void {
    this.#discarded.get(row.kind)?.(row);
  }

  /** Tells the feature that owns the chain's type that it moved. */
  moved(chain: ChainRef, current: number | null): void {
    this.#moved.get(chain.type)?.(chain, current);
  }
}
