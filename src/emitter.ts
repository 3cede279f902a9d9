// Notifications between services (VS Code's Emitter), beside disposal so any process may use it:
// a service that others must hear from exposes an event, and its owner subscribes once every
// service exists, so no service is built around a callback into one that is not there yet.
import type { Disposable } from './disposable.js';

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T = void> implements Disposable {
  private readonly listeners = new Set<(value: T) => void>();

  /** Subscribes `listener`; disposing the result unsubscribes it. */
  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  /** Calls every listener now, in subscription order. */
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
