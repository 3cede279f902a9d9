// The tab's child on its PTY (SPEC §7): started under the user's umask with the tab's
// environment, its input written straight to the master, its output read at the pace the parse
// budget allows, its exit reported once the PTY is drained.
import fs from 'node:fs';
import * as pty from 'node-pty';
import { PtyWriter } from './ptyWriter.js';
import { CHILD_TERM, childEnvironment } from './childEnvironment.js';
import { bridgeToken } from '../protocol/bridgeToken.js';
import { procStartTime } from '../proc.js';
import type { ChildExit } from '../lifecycle/restart.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';

export interface ChildSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  umask: number;
  tabId: string;
  bridgeSocketPath: string;
  bridgeKey: Buffer;
  /** The incarnation the bridge token is made for. */
  childInc: string;
  shimDir?: string;
}

export interface ChildEvents {
  data(data: Uint8Array): void;
  exit(exit: ChildExit): void;
  /** The PTY took queued input: room may have opened for input that waits. */
  inputTaken(): void;
}

/** What the child's environment adds to the tab's: the terminal it runs in, its bridge, a1's shims. */
function childEnv(spec: ChildSpec): Record<string, string> {
  return childEnvironment({
    env: spec.env,
    tabId: spec.tabId,
    bridgeSocketPath: spec.bridgeSocketPath,
    bridgeToken: bridgeToken(spec.bridgeKey, spec.childInc),
    shimDir: spec.shimDir,
  });
}

export class ChildProcess {
  /** The running child's input, written straight to the PTY master. */
  readonly writer: PtyWriter;
  readonly startTime: string | null;
  private slaveFd: number | null = null;
  /** Set while reading is paused for the parse budget; cleared when it resumes. */
  private resumeTimer: NodeJS.Timeout | null = null;
  private ended = false;
  private readonly subscriptions: pty.IDisposable[];

  /** Throws when the child cannot be started. */
  static spawn(spec: ChildSpec, events: ChildEvents, log: Logger): ChildProcess {
    const [file, ...args] = spec.argv;
    // The child runs under the user's own umask, not a1's 077 (SPEC §15); fork happens
    // synchronously inside spawn, so the umask is swapped only for that call.
    const own = process.umask(spec.umask);
    let p: pty.IPty;
    try {
      p = pty.spawn(file, args, {
        name: CHILD_TERM,
        cols: spec.cols,
        rows: spec.rows,
        cwd: spec.cwd,
        env: childEnv(spec),
        encoding: null,
      } as pty.IPtyForkOptions);
    } finally {
      process.umask(own);
    }
    return new ChildProcess(p, events, log);
  }

  private constructor(
    private readonly proc: pty.IPty,
    events: ChildEvents,
    private readonly log: Logger,
  ) {
    this.writer = new PtyWriter(
      (proc as unknown as { fd: number }).fd,
      (err) => log.warn('pty-write-failed', { code: errorCode(err) }),
      () => events.inputTaken(),
    );
    this.holdSlave();
    this.startTime = procStartTime(proc.pid);
    this.subscriptions = [
      proc.onData((data) => events.data(data as unknown as Uint8Array)),
      proc.onExit(({ exitCode, signal }) => events.exit({ code: signal ? null : exitCode, signal: signal || null })),
    ];
  }

  get pid(): number {
    return this.proc.pid;
  }

  /**
   * A flood is parsed one chunk per event-loop turn when the parse budget says wait: the PTY is
   * paused after the chunk and resumed `waitMs` later, so frames and client input run in between.
   */
  pauseReading(waitMs: number): void {
    // A viewed tab reads on (waitMs 0): libuv already returns to the event loop after a bounded
    // batch of reads, and pausing after every 4 KiB chunk cost two epoll_ctl calls and a loop turn each.
    if (waitMs === 0 || this.resumeTimer || this.ended) return;
    this.proc.pause();
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = null;
      this.proc.resume();
    }, waitMs);
  }

  /** The PTY and the model each take the size unless they already have it, so a size the PTY
   * missed is applied when it is asked again (SPEC §7). */
  resize(cols: number, rows: number): void {
    if (this.proc.cols === cols && this.proc.rows === rows) return;
    try {
      this.proc.resize(cols, rows);
    } catch (err) {
      this.log.warn('resize-failed', { code: errorCode(err) });
    }
  }

  /** After its exit, or when the holder shuts down: no event of it is heard any more, input
   * still queued is dropped with the writer, the slave is let go and the master closed. A child
   * still running then is hung up by the kernel, as the holder's own exit would (no signal is
   * sent by pid: it may have been reaped already). Idempotent. */
  dispose(): void {
    if (this.ended) return;
    this.ended = true;
    for (const subscription of this.subscriptions) subscription.dispose();
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
    this.writer.dispose();
    this.releaseSlave();
    closeMaster(this.proc);
  }

  /**
   * Keeps the PTY's slave side open while the child runs. Linux answers a master read with EIO
   * once the last slave descriptor closes, and can do so before the child's last output has been
   * read (seen here on 6.x kernels under load): the tail of the screen was lost. With the slave
   * held, the master never sees EIO; node-pty reports the exit after reading what is left.
   */
  private holdSlave(): void {
    const name = (this.proc as unknown as { ptsName?: string }).ptsName;
    if (!name) return;
    try {
      this.slaveFd = fs.openSync(name, fs.constants.O_RDWR | fs.constants.O_NOCTTY);
    } catch (err) {
      this.log.warn('slave-open-failed', { code: errorCode(err) });
    }
  }

  private releaseSlave(): void {
    if (this.slaveFd === null) return;
    try {
      fs.closeSync(this.slaveFd);
    } catch {
      // Already closed.
    }
    this.slaveFd = null;
  }
}

/** Closes node-pty's reader of the master, which owns the master's descriptor. Not in node-pty's
 * types (like `fd` and `ptsName` above); its own destroy() would also signal the child by pid. */
function closeMaster(proc: pty.IPty): void {
  (proc as unknown as { _socket?: { destroy(): void } })._socket?.destroy();
}
