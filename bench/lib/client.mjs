// A person's terminal for the bench: a node-pty PTY running a multiplexer's client, whose output
// is timed on arrival. Waits are event-driven, not polled, so a measured time is the arrival of
// the chunk that satisfied the wait, not the next poll after it.

import { performance } from 'node:perf_hooks';
import nodePty from 'node-pty';
import xtermHeadless from '@xterm/headless';

const { Terminal } = xtermHeadless;

export class ClientExitedError extends Error {
  code = 'CLIENT_EXITED';
}
export class WaitTimeoutError extends Error {
  code = 'WAIT_TIMEOUT';
}

/** Finds a needle in a byte stream fed chunk by chunk, including across chunk boundaries. */
export class StreamSearch {
  #needle;
  #tail = Buffer.alloc(0);

  constructor(needle) {
    this.#needle = Buffer.from(needle, 'utf8');
  }

  /** True once the needle has appeared in everything fed so far. */
  feed(chunk) {
    const window = this.#tail.length === 0 ? chunk : Buffer.concat([this.#tail, chunk]);
    if (window.includes(this.#needle)) return true;
    this.#tail = window.subarray(Math.max(0, window.length - (this.#needle.length - 1)));
    return false;
  }
}

export class BenchClient {
  #pty;
  #term;
  #screenAttached = true;
  #byteWatchers = new Set();
  #screenWatchers = new Set();
  #exit = null;
  #disposed = false;

  constructor({ argv, env, cwd, cols, rows }) {
    const [file, ...args] = argv;
    this.#term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
    // encoding null: chunks arrive as Buffers, searched without decoding megabytes of output.
    this.#pty = nodePty.spawn(file, args, { name: 'xterm-256color', cols, rows, cwd, env, encoding: null });
    this.pid = this.#pty.pid;
    this.#pty.onData((chunk) => this.#onChunk(chunk, performance.now()));
    // A real terminal answers queries (device attributes, cursor position); so does this one.
    this.#term.onData((reply) => this.#reply(reply));
    this.#term.onBinary((reply) => this.#reply(Buffer.from(reply, 'latin1')));
    this.exited = new Promise((resolve) => {
      this.#pty.onExit((info) => {
        this.#exit = info;
        const error = new ClientExitedError(
          `the client exited (code ${info.exitCode}, signal ${info.signal ?? 0})${this.#screenSummary()}`,
        );
        for (const watcher of [...this.#byteWatchers, ...this.#screenWatchers]) watcher.fail(error);
        resolve(info);
      });
    });
  }

  /** Writes input as a person's keystrokes; returns the time just before the write. */
  write(data) {
    const at = performance.now();
    this.#pty.write(data);
    return at;
  }

  screenText() {
    const buffer = this.#term.buffer.active;
    const lines = [];
    for (let y = 0; y < this.#term.rows; y++) lines.push(buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? '');
    return lines;
  }

  /**
   * Stops feeding the screen model, for phases whose output is too large to parse in the
   * process that is also timing its arrival; byte waits keep working.
   */
  detachScreen() {
    this.#screenAttached = false;
  }

  /** Resolves with the arrival time of the chunk that completes `text` in the output from now on. */
  waitForBytes(text, { timeoutMs, what = `output ${JSON.stringify(text)}` }) {
    const search = new StreamSearch(text);
    return this.#watch(this.#byteWatchers, timeoutMs, what, (watcher) => {
      watcher.onChunk = (chunk, at) => {
        if (search.feed(chunk)) watcher.done(at);
      };
    });
  }

  /**
   * Resolves with `{ at, lines }` once `pred(lines)` holds for the parsed screen: `at` is the
   * arrival time of the chunk whose parsing made it hold (or now, if it holds already).
   */
  waitForScreen(pred, { timeoutMs, what = 'screen condition' }) {
    if (!this.#screenAttached) throw new Error('the screen model is detached');
    return this.#watch(this.#screenWatchers, timeoutMs, what, (watcher) => {
      watcher.onParsed = (at) => {
        const lines = this.screenText();
        if (pred(lines)) watcher.done({ at, lines });
      };
      // An empty write is parsed after everything before it: checks the current screen.
      this.#term.write('', () => watcher.onParsed?.(performance.now()));
    });
  }

  /** Ends the client if it still runs; idempotent. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#exit === null) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // It exited between the check and the signal.
      }
    }
    this.#term.dispose();
  }

  #watch(set, timeoutMs, what, arm) {
    return new Promise((resolve, reject) => {
      if (this.#exit !== null) {
        reject(new ClientExitedError(`the client had already exited while waiting for ${what}`));
        return;
      }
      const watcher = {
        done: (value) => {
          finish();
          resolve(value);
        },
        fail: (error) => {
          finish();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        watcher.fail(new WaitTimeoutError(`timed out after ${timeoutMs} ms waiting for ${what}${this.#screenSummary()}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        set.delete(watcher);
        watcher.onChunk = watcher.onParsed = undefined;
      };
      set.add(watcher);
      arm(watcher);
    });
  }

  #onChunk(chunk, at) {
    for (const watcher of this.#byteWatchers) watcher.onChunk?.(chunk, at);
    if (!this.#screenAttached || this.#disposed) return;
    this.#term.write(chunk, () => {
      for (const watcher of this.#screenWatchers) watcher.onParsed?.(at);
    });
  }

  /** The screen, for error messages, while there is a current one to show. */
  #screenSummary() {
    if (!this.#screenAttached || this.#disposed) return '';
    return `; screen:\n${this.screenText().join('\n').trimEnd()}`;
  }

  #reply(data) {
    if (this.#exit === null && !this.#disposed) this.#pty.write(data);
  }
}
