// Disposal in one place (xterm.js's Lifecycle.ts): whatever holds a resource (a timer, a socket,
// a listener, the outer terminal's modes) is registered when it is created, and the owner's exit
// is one dispose() that releases all of it, in the order it was registered.

export interface Disposable {
  dispose(): void;
}

export function toDisposable(dispose: () => void): Disposable {
  return { dispose };
}

export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Registers `item`; one added to a store already disposed is disposed at once. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.add(item);
    return item;
  }

  /** Idempotent: the second and later calls do nothing. Every item is disposed even if one throws;
   * the first error is rethrown afterwards. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    let failure: { error: unknown } | null = null;
    for (const item of this.items) {
      try {
        item.dispose();
      } catch (error) {
        failure ??= { error };
      }
    }
    this.items.clear();
    if (failure) throw failure.error;
  }
}

/** A timer that can be re-armed, cleared by dispose. */
export class Timer implements Disposable {
  private handle: NodeJS.Timeout | null = null;

  /** Replaces any timer still armed. */
  set(ms: number, fire: () => void): void {
    this.clear();
    this.handle = setTimeout(() => {
      this.handle = null;
      fire();
    }, ms);
  }

  clear(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = null;
  }

  dispose(): void {
    this.clear();
  }
}

/** An interval that keeps no process alive (unref'd), cleared by dispose. */
export function interval(ms: number, fire: () => void): Disposable {
  const handle = setInterval(fire, ms);
  handle.unref();
  return toDisposable(() => clearInterval(handle));
}
