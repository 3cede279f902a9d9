// The remote entry's first stdout bytes: `A1REMOTE <linkGen>\n`. The remote login shell may print
// before it (a chatty .bashrc, a motd, a title escape), so the local side scans for the banner
// and discards what came first. The banner's form never changes between link generations, so a
// peer of another generation is recognised as one (incompatible), not as a peer that never spoke.

/** The generation of the link itself: the banner, the mux framing and the channel-0 messages.
 * Bumped when they change incompatibly; the inner planes have their own (PROTOCOL_GENERATION). */
export const LINK_GENERATION = 1;

const BANNER_PREFIX = Buffer.from('A1REMOTE ');
/** Up to 9 digits of generation, then the newline: the longest banner line. */
const MAX_GENERATION_DIGITS = 9;
const MAX_BANNER_BYTES = BANNER_PREFIX.length + MAX_GENERATION_DIGITS + 1;
const NEWLINE = 0x0a;

/** What a login may print before the banner. A login script that prints more is broken for a
 * non-interactive session anyway, and past it the scan would buffer a remote's output unbounded. */
export const MAX_BANNER_JUNK_BYTES = 64 * 1024;

/** This side's banner, as the remote entry writes it. */
export function bannerBytes(linkGen: number = LINK_GENERATION): Buffer {
  return Buffer.from(`${BANNER_PREFIX.toString()}${linkGen}\n`);
}

export type BannerScan =
  | { state: 'waiting' }
  /** rest: the link's first bytes after the banner; junkSeen: something came before it. */
  | { state: 'found'; linkGen: number; junkSeen: boolean; rest: Buffer }
  /** More than MAX_BANNER_JUNK_BYTES came first (sshFailure.ts: 'login-noise'). */
  | { state: 'failed' };

/**
 * Finds the banner in the first bytes of the entry's stdout, fed as they arrive. Each byte is
 * copied once into a window of fixed size, so feeding one byte at a time costs no more than one
 * chunk. Text that only starts like a banner (`A1REMOTE is up`) is junk like any other. Once it
 * has decided it takes no more bytes: what follows the banner belongs to the link's MuxDecoder.
 */
export class BannerScanner {
  readonly #window = Buffer.alloc(MAX_BANNER_JUNK_BYTES + MAX_BANNER_BYTES);
  #filled = 0;
  /** Where the next banner may start: nothing before it can be one. */
  #from = 0;
  #result: BannerScan = { state: 'waiting' };

  push(chunk: Buffer): BannerScan {
    if (this.#result.state !== 'waiting') return this.#result;
    const taken = Math.min(chunk.length, this.#window.length - this.#filled);
    chunk.copy(this.#window, this.#filled, 0, taken);
    this.#filled += taken;
    for (;;) {
      const start = this.#window.subarray(0, this.#filled).indexOf(BANNER_PREFIX, this.#from);
      if (start < 0 || start > MAX_BANNER_JUNK_BYTES) {
        // A banner may still start in the last prefix-length bytes, unless they are past the limit.
        this.#from = Math.max(this.#from, this.#filled - BANNER_PREFIX.length + 1);
        if (start > MAX_BANNER_JUNK_BYTES || this.#from > MAX_BANNER_JUNK_BYTES) return this.#fail();
        return this.#result;
      }
      const line = this.#bannerLineAt(start);
      if (line === 'incomplete') {
        this.#from = start;
        return this.#result;
      }
      if (line === null) {
        this.#from = start + 1;
        continue;
      }
      const rest = Buffer.concat([this.#window.subarray(line.end, this.#filled), chunk.subarray(taken)]);
      this.#result = { state: 'found', linkGen: line.linkGen, junkSeen: start > 0, rest };
      return this.#result;
    }
  }

  /** The banner line starting at `start`: its generation and end, 'incomplete' while its bytes
   * are still coming, null when the bytes there are no banner. */
  #bannerLineAt(start: number): { linkGen: number; end: number } | 'incomplete' | null {
    let at = start + BANNER_PREFIX.length;
    while (at < this.#filled && at - start < MAX_BANNER_BYTES) {
      const byte = this.#window[at];
      if (byte === NEWLINE) {
        const digits = this.#window.toString('latin1', start + BANNER_PREFIX.length, at);
        return digits.length > 0 ? { linkGen: Number(digits), end: at + 1 } : null;
      }
      if (byte < 0x30 || byte > 0x39) return null;
      at++;
    }
    return at - start < MAX_BANNER_BYTES ? 'incomplete' : null;
  }

  #fail(): BannerScan {
    this.#result = { state: 'failed' };
    return this.#result;
  }
}
