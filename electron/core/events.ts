import type { AppEvent, AppEventName, AppEvents } from '../contract.ts';

export type EventListener = (event: AppEvent) => void;

/** Fan-out of App API events to the shells. A listener that throws is dropped, not the emitter. */
export class EventHub {
  readonly #listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit<K extends AppEventName>(name: K, payload: AppEvents[K]): void {
    const event = { name, payload } as AppEvent;
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        this.#listeners.delete(listener);
      }
    }
  }
}
