import { describe, it, expect, vi, afterEach } from 'vitest';
import { FrameClock, FRAME_INTERVAL_MS } from '../../src/holder/frameClock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('FrameClock', () => {
  it('fires at once on the leading edge and coalesces requests within an interval', () => {
    vi.useFakeTimers();
    let now = 1000;
    const frames: number[] = [];
    const clock = new FrameClock(() => frames.push(now), () => now);
    clock.request();
    expect(frames).toEqual([1000]); // no timer for the first frame
    now += 2;
    clock.request();
    clock.request();
    expect(frames).toHaveLength(1);
    now += FRAME_INTERVAL_MS;
    vi.advanceTimersByTime(FRAME_INTERVAL_MS);
    expect(frames).toHaveLength(2); // one trailing frame for both requests
    now += 100;
    clock.request();
    expect(frames).toHaveLength(3); // idle again: leading edge
    clock.dispose();
  });

  it('after expediteNext, the next request fires at once inside the interval and replaces a timed frame', () => {
    vi.useFakeTimers();
    let now = 1000;
    const frames: number[] = [];
    const clock = new FrameClock(() => frames.push(now), () => now);
    clock.request();
    now += 1;
    clock.request(); // timed for the interval's end
    clock.expediteNext();
    now += 1;
    clock.request();
    expect(frames).toEqual([1000, 1002]);
    vi.advanceTimersByTime(FRAME_INTERVAL_MS * 2);
    expect(frames).toHaveLength(2); // the timed frame was replaced, not added
    now += 1;
    clock.request();
    expect(frames).toHaveLength(2); // one expedited frame only: back to the interval
    vi.advanceTimersByTime(FRAME_INTERVAL_MS);
    expect(frames).toHaveLength(3);
    clock.dispose();
  });
});
