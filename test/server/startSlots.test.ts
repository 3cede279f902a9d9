import { describe, it, expect } from 'vitest';
import { StartSlots } from '../../src/server/startSlots.js';

/** A start the test ends by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('StartSlots', () => {
  it('runs at most the limit at once, queues the rest in order, and refuses none', async () => {
    const slots = new StartSlots(2);
    const starts = [deferred(), deferred(), deferred(), deferred()];
    const began: number[] = [];
    const done = starts.map((d, i) =>
      slots.run(async () => {
        began.push(i);
        await d.promise;
        return i;
      }),
    );
    await turn();
    expect(began).toEqual([0, 1]);
    expect([slots.inFlight, slots.queued]).toEqual([2, 2]);
    starts[1].resolve();
    await turn();
    expect(began).toEqual([0, 1, 2]);
    expect([slots.inFlight, slots.queued]).toEqual([2, 1]);
    // A failed start frees its slot too.
    starts[0].reject(new Error('spawn failed'));
    await expect(done[0]).rejects.toThrow('spawn failed');
    await turn();
    expect(began).toEqual([0, 1, 2, 3]);
    starts[2].resolve();
    starts[3].resolve();
    expect(await Promise.all(done.slice(1))).toEqual([1, 2, 3]);
    expect([slots.inFlight, slots.queued]).toEqual([0, 0]);
  });

  it('a newcomer does not overtake the queue when a slot frees', async () => {
    const slots = new StartSlots(1);
    const first = deferred();
    const order: string[] = [];
    const a = slots.run(async () => {
      order.push('a');
      await first.promise;
    });
    const b = slots.run(async () => {
      order.push('b');
    });
    first.resolve();
    const c = slots.run(async () => {
      order.push('c');
    });
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('needs a limit of at least 1', () => {
    expect(() => new StartSlots(0)).toThrow(RangeError);
  });
});
