// Frame pacing (SPEC §7): a frame leaves at once when the previous one left more than one
// interval ago (so a keystroke's echo never waits for a timer); frames are coalesced only
// while output keeps coming. After admitted input the next frame leaves at once whatever the
// interval: it carries the echo a person is waiting for.

/** 60 fps while output streams: every frame re-reads and re-sends the rows a scroll moved, so
 * halving the rate from 120 fps cut the holder's CPU per MiB of a flood; one frame in 16 ms is
 * what a person can see. Echo frames are expedited and never wait for it. */
export const FRAME_INTERVAL_MS = 16;

export class FrameClock {
  private lastAt = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private expedited = false;

  constructor(
    private readonly emit: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The next request fires at once, even inside the interval or with a frame already timed. */
  expediteNext(): void {
    this.expedited = true;
  }

  request(): void {
    if (this.expedited) {
      this.expedited = false;
      this.dispose();
      this.fire();
      return;
    }
    if (this.timer) return;
    const wait = this.lastAt + FRAME_INTERVAL_MS - this.now();
    if (wait <= 0) {
      this.fire();
    } else {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.fire();
      }, wait);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private fire(): void {
    this.lastAt = this.now();
    this.emit();
  }
}
