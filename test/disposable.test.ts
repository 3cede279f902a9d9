import { describe, expect, it, vi } from 'vitest';
import { DisposableStore, Timer, interval, toDisposable } from '../src/disposable.js';

describe('DisposableStore', () => {
  it('disposes what it holds once, in the order it was added', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('a')));
    store.add(toDisposable(() => order.push('b')));
    store.dispose();
    store.dispose();
    expect(order).toEqual(['a', 'b']);
    expect(store.isDisposed).toBe(true);
  });

  it('disposes at once what is added after it was disposed', () => {
    const store = new DisposableStore();
    store.dispose();
    const late = vi.fn();
    store.add(toDisposable(late));
    expect(late).toHaveBeenCalledOnce();
  });

  it('disposes every item even when one throws, then rethrows the first error', () => {
    const store = new DisposableStore();
    const after = vi.fn();
    store.add(
      toDisposable(() => {
        throw new Error('first');
      }),
    );
    store.add(toDisposable(after));
    expect(() => store.dispose()).toThrow('first');
    expect(after).toHaveBeenCalledOnce();
  });
});

describe('Timer', () => {
  it('fires once, can be re-armed, and fires no more once disposed', () => {
    vi.useFakeTimers();
    try {
      const timer = new Timer();
      const fired = vi.fn();
      timer.set(10, fired);
      timer.set(20, fired);
      vi.advanceTimersByTime(15);
      expect(fired).not.toHaveBeenCalled();
      vi.advanceTimersByTime(10);
      expect(fired).toHaveBeenCalledOnce();
      timer.set(10, fired);
      timer.dispose();
      vi.advanceTimersByTime(20);
      expect(fired).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('interval', () => {
  it('fires every period until disposed', () => {
    vi.useFakeTimers();
    try {
      const fired = vi.fn();
      const every = interval(10, fired);
      vi.advanceTimersByTime(35);
      expect(fired).toHaveBeenCalledTimes(3);
      every.dispose();
      vi.advanceTimersByTime(50);
      expect(fired).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
