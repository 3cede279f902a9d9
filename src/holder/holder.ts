// One tab's holder (SPEC §7): owns the PTY, the child and the terminal model; serves the
// server (control, authenticated both ways) and viewing clients (data plane, by ticket).
import net from 'node:net';
import fs from 'node:fs';
import * as pty from 'node-pty';
import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import { Connection } from '../protocol/connection.js';
import { acceptHandshake } from '../protocol/handshake.js';
import { ProtocolError } from '../protocol/errors.js';
import { holderSchema, dataSchema, type HolderState } from '../protocol/messages.js';
import { mergeSchemas } from '../protocol/schema.js';
import { UnixListener } from '../protocol/unixListener.js';
import { verifyTicket, UsedTickets, newIncarnation, ticketProofKey, type Ticket } from '../security.js';
import { procStartTime, descendsFromSession } from '../proc.js';
import { ModeTracker } from '../surface/modes.js';
import { extractRow, extractCursor } from '../surface/extract.js';
import { changedRows } from '../surface/diff.js';
import { watchDirtyRows, writeNow } from '../surface/feed.js';
import { RowCache } from '../surface/rowCache.js';
import type { Row, SurfacePatch } from '../surface/types.js';
import { encodeInput, isBinaryInput } from '../input/encode.js';
import { isChildOnly } from '../input/kittyKeys.js';
import type { InputEvent } from '../input/events.js';
import { InputGate, type Admission, type InputBatch, type InputPart } from './inputGate.js';
import { PtyWriter } from './ptyWriter.js';
import { BridgeListener, type BridgeReport } from './bridge.js';
import { bridgeToken } from '../protocol/bridgeToken.js';
import { planRetirement, sessionMembers } from '../lifecycle/retirement.js';
import { executeTermination, realTerminateIO, type TerminateIO } from '../lifecycle/terminate.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';
import { StartingInput } from './startingInput.js';
import { recoveryFile, recoveryText, writeRecoveryFile } from './recovery.js';
import { decideAfterExit, isCrash, type ChildExit } from '../lifecycle/restart.js';
import { parseResumeAuthority, resumeArgvAt, type ResumeAuthority } from '../lifecycle/records.js';
import { INITIAL_STATUS, UNRESPONSIVE_AFTER_MS, glyphOf, heartbeatSilenceMs, reduceStatus, type AgentPhase, type StatusEvent, type StatusState } from '../status/model.js';
import { keyNamesOf, keyRulesFor } from '../status/agentKeys.js';
import { NO_PROMPT, lostPrompt, nextIncarnation, promptRulesFor, reducePrompt, touchesInput, type PromptEvent, type PromptState } from './pendingPrompt.js';
import type { Glyph } from '../status/glyphs.js';
import { FrameClock } from './frameClock.js';
import { DroppedLines, readHistoryPage, searchBuffer } from './history.js';
import { parseOsc52 } from './clipboard.js';
import { decideServerWatch, probeServer, retryDelayMs, startServerProcess } from './serverWatch.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { takeArmedFault } from '../diag/testFaults.js';

const { Terminal } = xtermHeadless;
type XTerm = InstanceType<typeof Terminal>;

/** A client lane holding more than this many unsent bytes is behind: it gets no new frame
 * until it drains, then one frame with everything that changed (single-slot lane). */
const LANE_HIGH_WATER_BYTES = 256 * 1024;
/** A tab nobody views may spend this many ms parsing per window of UNVIEWED_WINDOW_MS: about
 * 3% of a core, so 9 flooding background tabs leave the viewed tab's echo p99 within 1.25x of
 * idle (2 ms per 16 ms measured 2.55x). Such a tab still reads about 0.4 MB/s, far above what
 * agents print; viewing it reads at full speed. */
const UNVIEWED_PARSE_MS = 1;
const UNVIEWED_WINDOW_MS = 32;

/** A duty cycle: time spent per window, and how long to wait once the share is used up. */
class ParseBudget {
  private windowStart = 0;
  private spent = 0;
  constructor(
    private readonly shareMs: number,
    private readonly windowMs: number,
  ) {}

  spend(from: number, to: number): void {
    if (from - this.windowStart >= this.windowMs) {
      this.windowStart = from;
      this.spent = 0;
    }
    this.spent += to - from;
  }

  waitMs(now: number): number {
    if (this.spent < this.shareMs) return 0;
    return Math.max(1, Math.ceil(this.windowStart + this.windowMs - now));
  }
}
/** How often the clock-driven glyphs (unresponsive, stalled) and the heartbeat restart are checked. */
const STATUS_TICK_MS = 1_000;
/** Input that waits beyond the bound is refused once the child has taken none of its backlog for
 * this long: it is not reading (issue 15). Long enough for a reading child on a loaded machine. */
const INPUT_STALL_MS = 2_000;
/** How often waiting input checks whether the child stopped reading. */
const INPUT_STALL_CHECK_MS = 250;
/** Waiting input plus the writer's backlog never exceed this many times the bound. */
const INPUT_CAP_FACTOR = 32;
/** Title changes reach the server at most this often: some agents animate their title, and
 * the picker only needs the latest. */
const TITLE_REPORT_INTERVAL_MS = 500;
/** How long a restarted agent may take to say it is ready (its idle report) before the prompt its
 * predecessor lost is no longer offered: a resumed agent loads its whole conversation first. */
const OFFER_READY_WAIT_MS = 30_000;
/** After that report, how long it may take to turn on bracketed paste, without which the prompt
 * is never typed (a newline in it could submit). */
const OFFER_PASTE_MODE_WAIT_MS = 3_000;
/** An agent that reports nothing at its start (Codex) is taken to wait at its prompt once it has
 * bracketed paste on and has drawn nothing for this long: it finished painting its start screen. */
const OFFER_QUIET_MS = 1_000;
/** Keys typed while a tab started go to a child that printed nothing by then anyway. */
const STARTING_INPUT_WAIT_MS = 2_000;
/** The data-plane method a client lists to be told about an offered prompt. */
const PROMPT_OFFER_METHOD = 'promptOffer';
/** How often a test-only hang looks whether it may end. */
const TEST_HANG_POLL_MS = 50;
/** How long processes of a closing tab get between SIGHUP and SIGKILL. */
export const DEFAULT_GRACE_MS = 2000;

export interface HolderInit {
  tabId: string;
  holderInc: string;
  epoch: number;
  /** The tab's own start argv; the first child runs `resume.argv` instead when `resume` is given. */
  command: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  scrollback: number;
  umask: number;
  socketPath: string;
  holderKey: string; // base64
  ticketKey: string; // base64
  inputQueueBytes: number;
  /** The record (validated by the server) a restart resumes the agent session from, and its
   * argv; null restarts with `command`. Validated again at each restart. */
  resume: ResumeAuthority | null;
  /** Where last screens of exited and failed children go (owner-only). */
  recoveryDir: string;
  bridgeKey: string; // base64
  bridgeSocketPath: string;
  /** The tab's agent kind, or null for a plain shell tab. */
  agentKind: string | null;
  /** A working agent with no progress this long shows stalled (SPEC §10). */
  stallNoticeMs: number;
  /** Missed heartbeats this long show unresponsive: 30 s (SPEC §10), shorter only in tests. */
  unresponsiveMs?: number;
  /** A child that heartbeats and then goes silent this long is restarted (SPEC §10). */
  unresponsiveRestartMs: number;
  /** The profile's server socket, writer lock and profile: a holder replaces a server that
   * died (SPEC §10). */
  serverSocketPath?: string;
  writerLockPath?: string;
  profile?: string;
}

interface DataClient {
  conn: Connection;
  clientId: string;
  /** The optional data-plane methods the client listed in its handshake. */
  methods: readonly string[];
  attached: boolean;
  /** The rows this client last received, to send only what changed since. */
  sentRows: Row[] | null;
  sentMeta: string;
  behind: boolean;
}

const holderWire = mergeSchemas(holderSchema, dataSchema);

export class Holder {
  private readonly term: XTerm;
  private readonly modes: ModeTracker;
  private child: pty.IPty | null = null;
  /** The running child's input, written straight to the PTY master. */
  private writer: PtyWriter | null = null;
  private childStart: string | null = null;
  private childInc: string | null = null;
  /** The child's session id (node-pty makes the child a session leader): what a close ends. */
  private childSid: number | null = null;
  private lifecycle: HolderState['lifecycle'] = 'starting';
  private exit: HolderState['exit'] = null;
  private title = '';
  private titleTimer: NodeJS.Timeout | null = null;
  private titleReportedAt = 0;
  private controller = { clientId: null as string | null, rev: 0 };
  private maxEpoch: number;
  private server: Connection | null = null;
  private readonly clients = new Set<DataClient>();
  private readonly usedTickets = new UsedTickets();
  private readonly gate: InputGate<DataClient>;
  private stallCheck: NodeJS.Timeout | null = null;
  private readonly frames: FrameClock;
  private readonly rowCache: RowCache;
  private readonly listener: UnixListener;
  private terminating = false;
  private slaveFd: number | null = null;
  private yielding = false;
  private readonly holderKey: Buffer;
  private readonly ticketKey: Buffer;
  private readonly bridge: BridgeListener;
  private resume: ResumeAuthority | null;
  /** Test-only (A1_TEST_HOLDER_CLOCK_SKEW_MS in the tab's environment): the clock a restart
   * validates its record with runs this far ahead, as after a server outage that long. */
  private readonly clockSkewMs: number;
  /** Crash times inside the restart window (SPEC §15). */
  private crashTimes: number[] = [];
  private restartTimer: NodeJS.Timeout | null = null;
  /** A test's clock: every restart after a crash waits at least this long. */
  private readonly testRestartDelayMs: number;
  private readonly startingInput: StartingInput<DataClient, InputEvent>;
  /** Set while a started child has keys waiting for its first output. */
  private startingInputDue: NodeJS.Timeout | null = null;
  private agent: HolderState['agent'] = null;
  /** Sessions known to be saved by their agent: one it worked in (a report other than idle), or
   * one this holder resumed. Only these are told to the server of an agent that saves a session
   * at its first prompt (resume authority is made from what the server is told). */
  private readonly savedSessions = new Set<string>();
  private agentSeq = 0;
  /** The agent's status from structured events only (src/status/model.ts), and its glyph. */
  private status: StatusState = INITIAL_STATUS;
  private glyph: Glyph = 'starting';
  private statusTimer: NodeJS.Timeout | null = null;
  /** The child is being killed to be started again (unresponsive, or a restart on request). */
  private forcedRestart = false;
  private readonly parseBudget = new ParseBudget(UNVIEWED_PARSE_MS, UNVIEWED_WINDOW_MS);
  /** Counted from the first copy-mode request on: clients only compare two replies' counts. */
  private droppedLines: DroppedLines | null = null;
  /** The controller's prompt as its keys and the agent's reports tell it (src/holder/pendingPrompt.ts).
   * Prompt text: kept in this process's memory only, never logged, persisted or sent to the server. */
  private prompt: PromptState = NO_PROMPT;
  /** A restarted agent is awaited to offer it the prompt its predecessor lost: since when, and
   * when it was ready (it reported idle, or, for an agent that reports nothing at its start, went
   * quiet). */
  private offerWait: { since: number; readyAt: number | null } | null = null;
  /** When the child last printed (performance.now()). */
  private outputAt = 0;

  constructor(
    private readonly init: HolderInit,
    private readonly log: Logger,
    private readonly onDone: (code: number) => void,
    private readonly terminateIO: TerminateIO = realTerminateIO,
  ) {
    this.maxEpoch = init.epoch;
    this.holderKey = Buffer.from(init.holderKey, 'base64');
    this.ticketKey = Buffer.from(init.ticketKey, 'base64');
    this.gate = new InputGate(init.inputQueueBytes, INPUT_STALL_MS, init.inputQueueBytes * INPUT_CAP_FACTOR);
    this.resume = parseResumeAuthority(init.resume);
    this.clockSkewMs = Number(init.env.A1_TEST_HOLDER_CLOCK_SKEW_MS) || 0;
    this.testRestartDelayMs = Number(init.env.A1_TEST_RESTART_DELAY_MS) || 0;
    this.startingInput = new StartingInput(init.inputQueueBytes);
    if (init.agentKind) this.agent = { kind: init.agentKind, sessionId: null, state: null, name: null, seq: 0 };
    this.bridge = new BridgeListener(
      init.bridgeSocketPath,
      Buffer.from(init.bridgeKey, 'base64'),
      () => (this.lifecycle === 'running' ? this.childInc : null),
      (pids) => this.childSid !== null && pids.some((pid) => descendsFromSession(pid, this.childSid!)),
      (report) => this.onBridgeReport(report),
      log,
    );
    this.term = new Terminal({
      cols: init.cols,
      rows: init.rows,
      scrollback: init.scrollback,
      allowProposedApi: true,
    });
    this.term.loadAddon(new unicode11.Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    this.modes = new ModeTracker(this.term, (data) => this.writer?.write(data));
    // Registered before any write, so no change goes unreported.
    const rowCache = new RowCache((y) => extractRow(this.term, y), true);
    const watching = watchDirtyRows(this.term, (range) => (range ? rowCache.mark(range.start, range.end) : rowCache.markAll()));
    this.rowCache = watching ? rowCache : new RowCache((y) => extractRow(this.term, y), false);
    this.term.onTitleChange((t) => {
      this.title = t;
      this.reportTitle();
    });
    // OSC 52: writes go to attached clients at once (never persisted or logged); reads and
    // malformed requests are swallowed here, so the child never gets an answer.
    this.term.parser.registerOscHandler(52, (data) => {
      const req = parseOsc52(data);
      if (req.kind === 'write') for (const c of this.clients) if (c.attached) c.conn.send({ t: 'clipboard', sequence: req.sequence });
      return true;
    });
    // The model answers terminal queries (DA, DSR) and carries admitted input (SPEC §7).
    this.term.onData((data) => this.writer?.write(data));
    this.term.onBinary((data) => this.writer?.write(Buffer.from(data, 'binary')));
    this.frames = new FrameClock(() => this.sendFrames());
    this.listener = new UnixListener(init.socketPath, (socket) => this.accept(socket), {
      error: (err) => this.log.warn('listen-error', { code: errorCode(err) }),
      restoreFailed: (err) => this.log.warn('socket-restore-failed', { code: errorCode(err) }),
    });
  }

  async start(): Promise<{ pid: number; childPid: number | null }> {
    // Test-only (A1_TEST_HOLDER_LISTEN_DELAY_MS in the tab's environment): the holder runs this
    // long before its socket answers, so a test can kill its server inside that window.
    const listenDelayMs = Number(this.init.env.A1_TEST_HOLDER_LISTEN_DELAY_MS) || 0;
    if (listenDelayMs > 0) await delay(listenDelayMs);
    await this.listener.listen();
    await this.bridge.listen();
    // Test-only (A1_TEST_PTY_HANG_WHILE in the tab's environment): PTY creation hangs while the
    // file it names exists, so a test can prove the server's start deadline and replacement (SPEC
    // §10). A file, not a time: a replacement holder gets the same environment.
    const hangWhile = this.init.env.A1_TEST_PTY_HANG_WHILE;
    while (hangWhile && fs.existsSync(hangWhile)) await delay(TEST_HANG_POLL_MS);
    this.statusTimer = setInterval(() => this.onStatusTick(), STATUS_TICK_MS);
    this.statusTimer.unref();
    // The server validated the resume it gave this holder just now (SPEC §9).
    this.spawnChild(this.resume ? 'granted' : 'fresh');
    return { pid: process.pid, childPid: this.child?.pid ?? null };
  }

  /** Starts the child: resumed when `resume` and the record still passes the validator (SPEC §9),
   * else with the tab's command. */
  /** `granted`: the resume the server gave at start; `check`: the kept resume if the validator
   * still allows it (a restart); `fresh`: the tab's own start argv (init.command), never a resume. */
  private spawnChild(mode: 'granted' | 'check' | 'fresh'): void {
    const allowed = mode === 'check' ? resumeArgvAt(this.resume, this.init.tabId, Date.now() + this.clockSkewMs) : null;
    if (allowed && allowed.argv === null && allowed.reason !== 'none') this.log.info('resume-refused', { reason: allowed.reason });
    const resumeArgv = mode === 'granted' ? (this.resume?.argv ?? null) : (allowed?.argv ?? null);
    // A session resumed is one its agent had saved.
    if (resumeArgv && this.resume) this.savedSessions.add(this.resume.record.sessionId);
    const argv = resumeArgv ?? this.init.command;
    const [file, ...args] = argv;
    this.childInc = newIncarnation();
    const env: Record<string, string> = {
      ...this.init.env,
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
      A1_TAB_ID: this.init.tabId,
      A1_BRIDGE: this.init.bridgeSocketPath,
      A1_BRIDGE_TOKEN: bridgeToken(Buffer.from(this.init.bridgeKey, 'base64'), this.childInc),
    };
    // The child runs under the user's own umask, not a1's 077 (SPEC §15); fork happens
    // synchronously inside spawn, so the umask is swapped only for that call.
    const own = process.umask(this.init.umask);
    try {
      this.child = pty.spawn(file, args, {
        name: 'xterm-256color',
        cols: this.term.cols,
        rows: this.term.rows,
        cwd: this.init.cwd,
        env,
        encoding: null,
      } as pty.IPtyForkOptions);
    } catch (err) {
      process.umask(own);
      this.log.error('spawn-failed', { code: errorCode(err) });
      this.lifecycle = 'failed';
      this.exit = { code: null, signal: null };
      this.term.write(`\r\na1: could not start ${JSON.stringify(file)}.\r\n`);
      this.refuseStartingInput();
      this.onStatus({ k: 'process', what: 'failed', at: Date.now() });
      this.broadcastState();
      return;
    }
    process.umask(own);
    const child = this.child;
    this.writer = new PtyWriter(
      (child as unknown as { fd: number }).fd,
      (err) => this.log.warn('pty-write-failed', { code: errorCode(err) }),
      () => this.releaseHeldInput(),
    );
    this.holdSlave(child);
    this.childStart = procStartTime(child.pid);
    this.childSid = child.pid;
    this.lifecycle = 'running';
    this.forcedRestart = false;
    this.status = reduceStatus(this.status, { k: 'process', what: 'starting', at: Date.now() });
    this.onStatus({ k: 'process', what: 'running', at: Date.now() });
    this.log.info('child-started', { childPid: child.pid, resumed: resumeArgv !== null });
    if (this.prompt.carried && !this.prompt.carried.typed) this.offerWait = { since: Date.now(), readyAt: null };
    this.awaitChildReady();
    child.onData((data) => {
      const started = performance.now();
      writeNow(this.term, data as unknown as Uint8Array);
      this.outputAt = performance.now();
      this.parseBudget.spend(started, this.outputAt);
      if (this.startingInputDue) this.deliverStartingInput();
      // Bracketed paste may be what the offer still waits for.
      if (this.offerWait?.readyAt) this.tryOffer();
      this.frames.request();
      this.yieldAfterChunk(child);
    });
    const childInc = this.childInc;
    child.onExit(({ exitCode, signal }) => {
      const exit = { code: signal ? null : exitCode, signal: signal || null };
      // node-pty emits exit after the PTY reached EOF; the empty write waits for the model to
      // finish parsing what was read, so the last screen is complete before it is fixed.
      this.term.write('', () => this.onExitOf(child, childInc, exit));
      // Test-only (A1_TEST_LATE_EXIT_MS in the tab's environment): the exit is delivered again
      // this much later, as a late notification of a child since replaced would arrive.
      const lateMs = Number(this.init.env.A1_TEST_LATE_EXIT_MS) || 0;
      if (lateMs > 0) setTimeout(() => this.onExitOf(child, childInc, exit), lateMs).unref();
    });
    this.broadcastState();
  }

  /**
   * A flood is parsed one chunk per event-loop turn: the PTY is paused after each chunk and
   * resumed on the next turn, so frames and client input run in between instead of waiting
   * for a burst of reads to be parsed.
   */
  private yieldAfterChunk(child: pty.IPty): void {
    // A tab nobody views parses at most a share of each window, so a background flood leaves
    // the CPU to the tab someone is typing in; its output is still read, only less eagerly.
    const wait = this.status.viewed ? 0 : this.parseBudget.waitMs(performance.now());
    // A viewed tab reads on: libuv already returns to the event loop after a bounded batch of
    // reads, and pausing after every 4 KiB chunk cost two epoll_ctl calls and a loop turn each.
    if (wait === 0 || this.yielding) return;
    this.yielding = true;
    child.pause();
    setTimeout(() => {
      this.yielding = false;
      if (this.child === child) child.resume();
    }, wait);
  }

  /** Only the running child's exit counts: one of an incarnation already replaced (or already
   * handled) is discarded, so it can neither end nor restart its successor (SPEC §10). */
  private onExitOf(child: pty.IPty, childInc: string | null, exit: ChildExit): void {
    if (this.child === child) return this.onChildExit(exit);
    this.log.info('child-exit-superseded', { childPid: child.pid, childInc });
  }

  /** The holder owns restarts (SPEC §15), so they work while no server runs: a clean exit
   * stays exited, a crash restarts with backoff, the third crash in the window fails the tab. */
  private onChildExit(exit: ChildExit): void {
    const childPid = this.child?.pid ?? null;
    this.child = null;
    // Input admitted but never taken is not replayed into the next child (SPEC §7): it is dropped
    // and the user is told its delivery is uncertain (part of it may have been read).
    const undelivered = (this.writer?.pendingBytes ?? 0) + this.gate.dropAll().reduce((n, b) => n + b.bytes, 0);
    this.stopStallCheck();
    if (undelivered > 0 && !this.terminating) {
      this.log.warn('input-undelivered', { bytes: undelivered });
      for (const c of this.clients) if (c.attached) c.conn.send({ t: 'inputRejected', reason: 'delivery-uncertain' });
    }
    this.writer?.dispose();
    this.writer = null;
    this.releaseSlave();
    // Keys still waiting for this child wait on for the next one, or are refused below.
    if (this.startingInputDue) clearTimeout(this.startingInputDue);
    this.startingInputDue = null;
    this.exit = exit;
    // Its pid and incarnation tell two crashes in a row apart (their crash records carry them).
    this.log.info('child-exited', { code: exit.code, signal: exit.signal, childPid, childInc: this.childInc });
    this.carryLostPrompt(exit);
    // Every death keeps its last screen (SPEC §7), a restarted one too: the restart clears the model.
    if (!this.terminating) this.saveRecovery();
    if (this.forcedRestart && !this.terminating) {
      // Killed on purpose to start again: not a crash, and no backoff.
      this.lifecycle = 'starting';
      this.onStatus({ k: 'process', what: 'starting', at: Date.now() });
      this.respawn(true);
      return;
    }
    const decision = this.terminating ? ({ action: 'exited' } as const) : decideAfterExit(exit, this.crashTimes, Date.now());
    const fact = decision.action === 'fail' ? 'failed' : decision.action === 'restart' || isCrash(exit) ? 'crashed' : 'exited';
    this.status = reduceStatus(this.status, { k: 'process', what: fact, at: Date.now() });
    this.glyph = glyphOf(this.status, this.glyphClock());
    if (decision.action === 'restart') {
      this.crashTimes = decision.crashTimes;
      this.lifecycle = 'starting';
      this.log.warn('child-respawn', { attempt: decision.crashTimes.length });
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (!this.terminating) this.respawn(true);
      }, Math.max(decision.delayMs, this.testRestartDelayMs));
    } else {
      if (decision.action === 'fail') this.crashTimes = decision.crashTimes;
      this.lifecycle = decision.action === 'fail' ? 'failed' : 'exited';
      this.refuseStartingInput();
    }
    this.frames.request();
    this.broadcastState();
  }

  /** A new child sees exactly what a fresh tab's child sees (SPEC §15): a clean model (RIS,
   * through the parser so every tracked mode resets too) at the tab's current size. The dead
   * child's last screen is in its recovery file. */
  private respawn(resume: boolean): void {
    this.term.write('\x1bc');
    this.title = '';
    this.exit = null;
    this.spawnChild(resume ? 'check' : 'fresh');
  }

  private saveRecovery(): void {
    if (!this.childInc) return;
    try {
      writeRecoveryFile(recoveryFile(this.init.recoveryDir, this.init.tabId, this.childInc), recoveryText(this.term.buffer.normal, this.term.rows));
    } catch (err) {
      this.log.warn('recovery-write-failed', { code: errorCode(err) });
    }
  }

  /** `r` (resume when possible) or `f` (fresh) on an exited or failed tab; with `force`, a
   * running child is ended and resumed (a stalled agent's restart action). */
  restartChild(fresh: boolean, force = false): void {
    if (this.terminating || this.restartTimer) return;
    if (this.child) {
      if (force) this.killChildForRestart('requested');
      return;
    }
    this.crashTimes = [];
    if (fresh) this.abandonSession();
    this.respawn(!fresh);
  }

  /** `f` abandons the agent session: nothing this holder keeps may resume it, not even a crash of
   * the new agent before it reports a session of its own (SPEC §9). */
  private abandonSession(): void {
    this.resume = null;
    if (this.agent) this.agent = { ...this.agent, sessionId: null };
    this.log.info('resume-set', { state: 'none' });
  }

  /** Ends the child's whole session so that onChildExit starts it again, resumed. */
  private killChildForRestart(reason: string): void {
    if (!this.child || this.forcedRestart || this.childSid === null) return;
    this.forcedRestart = true;
    this.log.warn('child-restart', { reason });
    const leader = { pid: this.childSid, startTime: this.childStart };
    for (const p of sessionMembers(snapshotProcesses(), leader, this.init.tabId, new Set([process.pid]))) {
      if (p.pid !== process.pid && procStartTime(p.pid) === p.startTime) signalPid(p.pid, 'SIGKILL');
    }
  }

  // ---- the prompt a crash lost (SPEC §10) ----

  /** At a child's death: a crash or a forced restart of an agent child carries the prompt that had
   * no settled reply to the next incarnation; a clean exit, a close or a sleep forgets it, and so
   * does a shell tab (its child is no agent, whatever ran inside it). */
  private carryLostPrompt(exit: ChildExit): void {
    this.offerWait = null;
    const died = !this.terminating && (this.forcedRestart || isCrash(exit));
    const agentChild = this.init.agentKind !== null || this.resume !== null;
    this.prompt = nextIncarnation(died && agentChild ? lostPrompt(this.prompt) : null);
  }

  /** Types the lost prompt into the restarted agent's input once it reported idle and takes
   * bracketed pastes: a paste, never an Enter, so nothing is sent until the user sends it. */
  private tryOffer(): void {
    const carried = this.prompt.carried;
    if (!this.offerWait?.readyAt || !carried || carried.typed || !this.writer) return;
    const modes = this.modes.modes;
    if (!modes.bracketedPaste) return;
    this.offerWait = null;
    this.writer.write(encodeInput({ k: 'paste', s: carried.text }, modes));
    this.stepPrompt({ k: 'offered' });
    this.log.info('prompt-offered');
    this.tellOffer(true);
  }

  /** An agent that reports nothing at its start is ready once quiet with bracketed paste on; one
   * that did not get ready, or not for pastes, in time gets nothing typed. */
  private checkOfferWait(now: number): void {
    const wait = this.offerWait;
    if (!wait) return;
    if (wait.readyAt === null && !promptRulesFor(this.agent?.kind).idleOnStart && this.modes.modes.bracketedPaste && performance.now() - this.outputAt >= OFFER_QUIET_MS) {
      wait.readyAt = now;
      this.tryOffer();
    } else if (wait.readyAt === null && now - wait.since >= OFFER_READY_WAIT_MS) this.dropOffer('not-ready');
    else if (wait.readyAt !== null && now - wait.readyAt >= OFFER_PASTE_MODE_WAIT_MS) this.dropOffer('no-bracketed-paste');
  }

  private dropOffer(reason: 'not-ready' | 'no-bracketed-paste' | 'input-first'): void {
    this.offerWait = null;
    this.stepPrompt({ k: 'offerDropped' });
    this.log.info('prompt-not-offered', { reason });
    this.tellOffer(false);
  }

  /** One line for the viewing clients, without the prompt: its text goes only to the child's input. */
  private tellOffer(typed: boolean): void {
    for (const c of this.clients) if (c.attached && c.methods.includes(PROMPT_OFFER_METHOD)) c.conn.send({ t: 'promptOffer', typed });
  }

  // ---- status ----

  private glyphClock() {
    return { now: Date.now(), unresponsiveMs: this.init.unresponsiveMs ?? UNRESPONSIVE_AFTER_MS, stallMs: this.init.stallNoticeMs };
  }

  private onStatus(event: StatusEvent): void {
    this.status = reduceStatus(this.status, event);
    this.refreshGlyph();
  }

  private refreshGlyph(): void {
    const glyph = glyphOf(this.status, this.glyphClock());
    if (glyph === this.glyph) return;
    this.glyph = glyph;
    this.broadcastState();
  }

  /** Clock-driven states, and the restart of a child that heartbeats and then goes silent (only
   * one that heartbeats at least once: hook-only agents are never restarted for silence). */
  private onStatusTick(): void {
    this.keepSocket();
    this.keepBridge();
    this.refreshGlyph();
    this.checkOfferWait(Date.now());
    const silence = heartbeatSilenceMs(this.status, Date.now());
    if (silence !== null && silence >= this.init.unresponsiveRestartMs && this.child) this.killChildForRestart('unresponsive');
  }

  /** A bridge socket that vanished is bound again within one tick (SPEC §4); until it is, the
   * child's silence is not counted against it (SPEC §10: transport loss alone is no hang). */
  private keepBridge(): void {
    if (this.bridgeRestoring || this.terminating || this.bridge.inPlace()) return;
    this.bridgeRestoring = true;
    if (!this.status.bridgeDown) {
      this.log.warn('bridge-lost');
      this.onStatus({ k: 'bridge', up: false, at: Date.now() });
    }
    void this.bridge.restore().then((ok) => {
      this.bridgeRestoring = false;
      if (!ok || this.terminating) return;
      this.log.info('bridge-restored');
      this.onStatus({ k: 'bridge', up: true, at: Date.now() });
    });
  }

  private bridgeRestoring = false;

  /** The holder's own socket, which viewing clients and a replacement server connect to, is
   * bound again within one tick when its path vanished (SPEC §4). */
  private keepSocket(): void {
    if (this.terminating || this.listener.inPlace()) return;
    void this.listener.restore().then((ok) => {
      if (ok) this.log.info('socket-restored');
    });
  }

  private onViewersChanged(): void {
    const viewed = [...this.clients].some((c) => c.attached);
    if (viewed !== this.status.viewed) this.onStatus({ k: 'viewed', viewed, at: Date.now() });
  }

  /** Applies an agent's report; false for one about another session (Codex's title thread). */
  private onBridgeReport(report: BridgeReport): boolean {
    const prev = this.agent;
    if (report.sameSession && (report.sessionId === null || report.sessionId !== prev?.sessionId)) return false;
    this.agent = {
      kind: report.agent ?? prev?.kind ?? 'generic',
      sessionId: report.sessionId ?? prev?.sessionId ?? null,
      state: null,
      name: report.name ?? prev?.name ?? null,
      seq: ++this.agentSeq,
    };
    if (report.state !== 'idle' && this.agent.sessionId) this.savedSessions.add(this.agent.sessionId);
    this.status = reduceStatus(this.status, { k: 'report', state: report.state, at: Date.now() });
    this.glyph = glyphOf(this.status, this.glyphClock());
    this.stepPrompt({ k: 'report', state: report.state });
    // The restarted agent says its prompt waits for input: the moment to offer the lost prompt.
    if (report.state === 'idle' && this.offerWait) {
      this.offerWait.readyAt ??= Date.now();
      this.tryOffer();
    }
    this.broadcastState();
    return true;
  }

  /**
   * Keeps the PTY's slave side open while the child runs. Linux answers a master read with EIO
   * once the last slave descriptor closes, and can do so before the child's last output has been
   * read (seen here on 6.x kernels under load): the tail of the screen was lost. With the slave
   * held, the master never sees EIO; node-pty reports the exit after reading what is left.
   */
  private holdSlave(child: pty.IPty): void {
    const name = (child as unknown as { ptsName?: string }).ptsName;
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

  state(): HolderState {
    return {
      tabId: this.init.tabId,
      holderInc: this.init.holderInc,
      holderPid: process.pid,
      childPid: this.child?.pid ?? null,
      childStart: this.childStart,
      childInc: this.childInc,
      lifecycle: this.lifecycle,
      exit: this.exit,
      cols: this.term.cols,
      rows: this.term.rows,
      title: this.title,
      controller: this.controller,
      agent: this.agent && { ...this.agent, sessionId: this.reportedSession(), state: this.agentPhase() },
      crashes: this.crashTimes.length,
      glyph: this.glyph,
    };
  }

  /** The agent's turn as a1 understands it (reports and keys), while its child runs and reports. */
  private agentPhase(): AgentPhase | null {
    return this.status.bridged && this.lifecycle === 'running' ? this.status.phase : null;
  }

  /** The newest title goes out at most every TITLE_REPORT_INTERVAL_MS, and the last one always. */
  private reportTitle(): void {
    if (this.titleTimer || this.terminating) return;
    const wait = this.titleReportedAt + TITLE_REPORT_INTERVAL_MS - Date.now();
    this.titleTimer = setTimeout(() => {
      this.titleTimer = null;
      this.titleReportedAt = Date.now();
      this.broadcastState();
    }, Math.max(0, wait));
  }

  private broadcastState(): void {
    const state = this.state();
    this.server?.send({ t: 'state', state });
    for (const c of this.clients) if (c.attached) c.conn.send({ t: 'state', state });
  }

  // ---- connections ----

  private accept(socket: net.Socket): void {
    const conn = new Connection(socket, holderWire);
    let ticket: Ticket | null = null;
    acceptHandshake(conn, {
      role: 'holder',
      methods: ['surface', 'input', 'resize', 'history', PROMPT_OFFER_METHOD],
      keyFor: (auth) => {
        if (auth.role === 'server') return this.holderKey;
        if (auth.role === 'data') {
          const t = (auth as unknown as { ticket?: Ticket }).ticket;
          if (!t || typeof t !== 'object') return new ProtocolError('auth', 'A data connection needs a ticket.');
          const verdict = verifyTicket(this.ticketKey, t, Date.now(), { tabId: this.init.tabId, holderInc: this.init.holderInc });
          if (!verdict.ok) return new ProtocolError('auth', `Ticket refused (${verdict.code}).`);
          if (!this.usedTickets.use(t.mac, t.expiresAt, Date.now())) return new ProtocolError('auth', 'Ticket already used.');
          ticket = t;
          return ticketProofKey(this.ticketKey, t);
        }
        return new ProtocolError('auth', 'Unknown role.');
      },
    }).then(
      (hs) => {
        if (hs.peerRole === 'server') this.adoptServer(conn);
        else if (ticket) this.addClient(conn, ticket.clientId, hs.peerMethods);
        else conn.close();
      },
      (err) => {
        this.log.warn('handshake-refused', { code: err instanceof ProtocolError ? err.code : errorCode(err) });
        conn.close();
      },
    );
  }

  /** An authenticated server connection replaces the current one only with its first admitted
   * epoch: a superseded server that reconnects is refused and cannot displace its successor. */
  private adoptServer(conn: Connection): void {
    this.log.info('server-connected');
    conn.onClose(() => {
      if (this.server !== conn) return;
      this.server = null;
      this.watchServer();
    });
    conn.onMessage((msg) => {
      const m = msg as Record<string, unknown> & { t: string };
      if (this.server !== conn && typeof m.epoch === 'number') {
        if (!this.admitEpoch(m.epoch)) return conn.close();
        const previous = this.server;
        this.server = conn;
        previous?.close();
        // What changed since the state sent at connect went to the previous link.
        conn.send({ t: 'state', state: this.state() });
      }
      this.onServerMessage(conn, m);
    });
    conn.send({ t: 'state', state: this.state() });
  }

  /** The server link dropped: with no client to do it, start a replacement for a server that
   * died, after a random 1–3 s, and never after a clean exit (SPEC §15); look again, backing off,
   * until a server links to this holder. */
  private watchServer(): void {
    if (!this.init.serverSocketPath || !this.init.profile || this.terminating) return;
    // Each loss gets its own grace: a timer armed for an earlier loss, whose server was replaced
    // and lost again meanwhile, must not fire at once for the new loss and race the client.
    this.lookForServer(++this.serverLosses, 0);
  }

  private lookForServer(loss: number, attempt: number): void {
    const current = () => loss === this.serverLosses && !this.server && !this.terminating;
    setTimeout(() => {
      if (!current()) return;
      // An attached client starts the replacement itself, or it has stopped starting them (its
      // start budget is spent) and offers [r]: either way this holder starts none while it stays.
      if (this.hasAttachedClient()) return this.lookForServer(loss, attempt + 1);
      void probeServer(this.init.serverSocketPath!, this.init.writerLockPath).then((probe) => {
        if (!current()) return;
        if (this.hasAttachedClient()) return this.lookForServer(loss, attempt + 1);
        if (this.serverLossLogged !== loss) this.log.info('server-lost', { reason: probe });
        this.serverLossLogged = loss;
        const decision = decideServerWatch(probe, this.serverStarts, Date.now(), this.terminating);
        if (decision.action === 'stop') return;
        this.serverStarts = decision.starts;
        if (decision.action === 'start') {
          this.log.warn('server-replace', { attempt });
          startServerProcess(process.argv[1], this.init.profile!, process.env);
        }
        this.lookForServer(loss, attempt + 1);
      });
    }, retryDelayMs(attempt)).unref();
  }

  /** Server links lost so far: the grace timer of each loss knows whether a later one superseded it. */
  private serverLosses = 0;
  /** The loss whose first look was logged: one `server-lost` each, whatever looks follow. */
  private serverLossLogged = 0;
  /** When this holder started servers, inside the automatic starts' window (SPEC §10). */
  private serverStarts: number[] = [];

  private hasAttachedClient(): boolean {
    return [...this.clients].some((c) => c.attached);
  }

  /** Epoch fencing (SPEC §5): commands from a lower epoch than any seen are refused. */
  private admitEpoch(epoch: number): boolean {
    if (epoch < this.maxEpoch) {
      this.log.warn('stale-epoch-refused', { epoch, maxEpoch: this.maxEpoch });
      return false;
    }
    this.maxEpoch = epoch;
    return true;
  }

  private onServerMessage(conn: Connection, msg: Record<string, unknown> & { t: string }): void {
    switch (msg.t) {
      case 'epoch':
        this.admitEpoch(msg.epoch as number);
        return;
      case 'ping':
        conn.send({ t: 'pong', n: msg.n });
        return;
      case 'setController': {
        if (!this.admitEpoch(msg.epoch as number)) return;
        this.controller = { clientId: (msg.clientId as string | undefined) ?? null, rev: msg.rev as number };
        conn.send({ t: 'controllerSet', rev: this.controller.rev });
        for (const c of this.clients) if (c.attached) c.conn.send({ t: 'controller', ...this.controller });
        return;
      }
      case 'terminate':
        if (!this.admitEpoch(msg.epoch as number)) return;
        void this.terminate(msg.graceMs as number);
        return;
      case 'restartChild':
        if (!this.admitEpoch(msg.epoch as number)) return;
        this.restartChild(msg.fresh === true, msg.force === true);
        return;
      case 'setResume': {
        if (!this.admitEpoch(msg.epoch as number)) return;
        this.resume = parseResumeAuthority(msg.resume);
        this.log.info('resume-set', { state: this.resume?.record.origin ?? 'none' });
        return;
      }
      default:
        return;
    }
  }

  private addClient(conn: Connection, clientId: string, methods: readonly string[]): void {
    const client: DataClient = { conn, clientId, methods, attached: false, sentRows: null, sentMeta: '', behind: false };
    this.clients.add(client);
    // A newer client's message this holder lacks is dropped; the view goes on (SPEC §6).
    const offSkipped = conn.onSkipped(() => {
      offSkipped();
      this.log.warn('client-message-skipped');
    });
    conn.onClose(() => {
      this.clients.delete(client);
      this.onViewersChanged();
    });
    conn.onDrain(() => {
      if (client.behind && conn.pendingBytes < LANE_HIGH_WATER_BYTES) {
        client.behind = false;
        this.log.info('client-resync');
        this.sendFrameTo(client, this.currentRows());
      }
    });
    conn.onMessage((msg) => this.onClientMessage(client, msg as Record<string, unknown> & { t: string }));
  }

  private onClientMessage(client: DataClient, msg: Record<string, unknown> & { t: string }): void {
    switch (msg.t) {
      case 'attach': {
        // Test-only (A1_TEST_ATTACH_DELAY_MS in the tab's environment): the answer comes this much
        // later, as from a holder under load, so a test can type into a client's wait for it.
        const delayMs = Number(this.init.env.A1_TEST_ATTACH_DELAY_MS) || 0;
        if (delayMs > 0) setTimeout(() => this.clients.has(client) && this.onAttach(client), delayMs);
        else this.onAttach(client);
        return;
      }
      case 'input':
        this.onInput(client, msg.rev as number, msg.events as InputEvent[]);
        return;
      case 'resize':
        if (!this.isController(client, msg.rev as number)) return;
        if (takeArmedFault('drop-resize')) return this.log.warn('test-resize-dropped');
        this.resize(msg.cols as number, msg.rows as number);
        return;
      // Copy mode: read-only and per client, so any client may ask, controller or not.
      case 'history': {
        this.droppedLines ??= new DroppedLines(this.term);
        const page = readHistoryPage(this.term, msg.from as number, msg.count as number);
        client.conn.send({ t: 'historyPage', reqId: msg.reqId, dropped: this.droppedLines.total, ...page });
        return;
      }
      case 'search': {
        this.droppedLines ??= new DroppedLines(this.term);
        const direction = msg.direction === 'backward' ? 'backward' : 'forward';
        const result = searchBuffer(this.term, msg.text as string, direction, (msg.from as number | undefined) ?? undefined);
        const total = this.term.buffer.active.length;
        client.conn.send({ t: 'searchResult', reqId: msg.reqId, total, dropped: this.droppedLines.total, ...result });
        return;
      }
      default:
        return;
    }
  }

  /** A client views the tab: it gets the state, who controls the tab, and the whole surface. */
  private onAttach(client: DataClient): void {
    client.attached = true;
    this.onViewersChanged();
    client.sentRows = null;
    client.conn.send({ t: 'state', state: this.state() });
    client.conn.send({ t: 'controller', ...this.controller });
    this.sendFrameTo(client, this.currentRows());
  }

  private isController(client: DataClient, rev: number): boolean {
    return this.controller.clientId === client.clientId && this.controller.rev === rev;
  }

  private onInput(client: DataClient, rev: number, events: InputEvent[]): void {
    if (!this.isController(client, rev)) {
      client.conn.send({ t: 'inputRejected', reason: 'read-only' });
      return;
    }
    if (Array.isArray(events) && this.inputWaitsForChild()) {
      // Typed while the child starts: kept in order, delivered once it is ready (SPEC §7).
      const bytes = events.reduce((n, ev) => n + Buffer.byteLength(encodeInput(ev, this.modes.modes)), 0);
      if (!this.startingInput.offer(client, events, bytes)) this.refuseInput([{ owner: client, bytes }]);
      return;
    }
    if (!Array.isArray(events) || this.lifecycle !== 'running' || !this.child) {
      client.conn.send({ t: 'inputRejected', reason: 'not-running' });
      return;
    }
    this.deliverInput(client, events);
  }

  /** Keys wait while the child starts, and after, until the new child is ready for them. */
  private inputWaitsForChild(): boolean {
    return !this.terminating && (this.lifecycle === 'starting' || this.startingInputDue !== null);
  }

  /** A child just started with keys waiting for it: they go at its first output (a shell's prompt,
   * an agent's first frame: it has set its terminal up by then; earlier, a line discipline still in
   * canonical mode would echo them and cut a long line), or after a bounded wait. */
  private awaitChildReady(): void {
    if (this.startingInput.bytes === 0) return;
    this.startingInputDue = setTimeout(() => this.deliverStartingInput(), STARTING_INPUT_WAIT_MS);
  }

  /** The agent's session as the server may record it: none yet while an agent that saves its
   * session at its first prompt has not saved it (a1 would resume a session that is not there). */
  private reportedSession(): string | null {
    const id = this.agent?.sessionId ?? null;
    if (id === null || !promptRulesFor(this.agent?.kind).savesSessionAtFirstPrompt) return id;
    return this.savedSessions.has(id) ? id : null;
  }

  /** The keys typed while the child started go to it now, in order, as if typed now. */
  private deliverStartingInput(): void {
    if (this.startingInputDue) clearTimeout(this.startingInputDue);
    this.startingInputDue = null;
    for (const batch of this.startingInput.take()) this.deliverInput(batch.owner, batch.events);
  }

  /** The child will not run: what waited for it is refused, and each typist is told. */
  private refuseStartingInput(): void {
    if (this.startingInputDue) clearTimeout(this.startingInputDue);
    this.startingInputDue = null;
    const batches = this.startingInput.take();
    if (batches.length === 0) return;
    this.log.warn('input-rejected', { bytes: batches.reduce((n, b) => n + b.bytes, 0) });
    for (const owner of new Set(batches.map((b) => b.owner))) owner.conn.send({ t: 'inputRejected', reason: 'not-started' });
  }

  private deliverInput(client: DataClient, events: InputEvent[]): void {
    const modes = this.modes.modes;
    // A key's release (and a modifier key alone) reaches a child that asked for it, but types
    // nothing: the agent's status and the pending prompt follow presses only.
    const presses = events.filter((ev) => !isChildOnly(ev));
    const phases = this.readKeys(presses);
    const parts: InputPart[] = [];
    let text = '';
    let bytes = 0;
    for (const ev of events) {
      const encoded = encodeInput(ev, modes);
      if (isBinaryInput(ev, modes)) {
        // Default-encoded mouse reports are single bytes above 0x7f, not UTF-8.
        if (text) parts.push({ binary: false, data: text });
        text = '';
        parts.push({ binary: true, data: encoded });
        bytes += encoded.length;
      } else {
        text += encoded;
        bytes += Buffer.byteLength(encoded);
      }
    }
    if (text) parts.push({ binary: false, data: text });
    const verdict = this.admit({ parts, bytes, paste: events.some((ev) => ev.k === 'paste'), owner: client });
    if (verdict !== 'refused') this.followPrompt(presses, phases, modes.bracketedPaste);
  }

  /** What the controller's keys tell about the agent's turn (src/status/agentKeys.ts): only
   * while a turn runs or a dialog waits, and only key names, never text. Returns the agent's
   * phase before and after each event. */
  private readKeys(events: InputEvent[]): Array<{ before: AgentPhase | null; after: AgentPhase | null }> {
    const rules = keyRulesFor(this.agent?.kind);
    const at = Date.now();
    const phases = events.map((ev) => {
      const before = this.agentPhase();
      if (before === 'working' || before === 'needs-input') {
        for (const key of keyNamesOf(ev)) this.status = reduceStatus(this.status, { k: 'key', key, rules, at });
      }
      return { before, after: this.agentPhase() };
    });
    this.refreshGlyph();
    return phases;
  }

  /** Admitted input, as the pending prompt follows it. Input that reaches the restarted child
   * before the lost prompt was offered means the user went on: the offer is dropped, not typed
   * into the middle of what they type. */
  private followPrompt(events: InputEvent[], phases: Array<{ before: AgentPhase | null; after: AgentPhase | null }>, bracketedPaste: boolean): void {
    if (this.offerWait && events.some(touchesInput)) this.dropOffer('input-first');
    events.forEach((ev, i) => this.stepPrompt({ k: 'input', ev, ...phases[i], bracketedPaste }));
  }

  private stepPrompt(event: PromptEvent): void {
    this.prompt = reducePrompt(promptRulesFor(this.agent?.kind), this.prompt, event);
  }

  private writerView() {
    return { pending: this.writer?.pendingBytes ?? 0, stalledMs: this.writer?.stalledMs() ?? 0 };
  }

  private admit(batch: InputBatch<DataClient>): Admission {
    const verdict = this.gate.offer(batch, this.writerView());
    if (verdict === 'write') this.writeBatch(batch);
    else if (verdict === 'refused') this.refuseInput([batch]);
    else if (!this.stallCheck) this.stallCheck = setInterval(() => this.checkHeldInput(), INPUT_STALL_CHECK_MS);
    return verdict;
  }

  private writeBatch(batch: InputBatch<DataClient>): void {
    for (const part of batch.parts) {
      if (part.binary) this.writer?.write(Buffer.from(part.data, 'latin1'));
      // Through the model's input path: marks the input as typed, so the echo is parsed at
      // once instead of on the model's next timer tick (SPEC §7).
      else this.term.input(part.data, true);
    }
    this.frames.expediteNext();
  }

  /** The PTY took bytes: input waiting in order goes as far as it now fits. */
  private releaseHeldInput(): void {
    for (const batch of this.gate.release(this.writerView())) this.writeBatch(batch);
    if (this.gate.heldBytes === 0) this.stopStallCheck();
  }

  private checkHeldInput(): void {
    this.releaseHeldInput();
    const refused = this.gate.refuseIfStalled(this.writerView());
    if (refused.length > 0) this.refuseInput(refused);
    if (this.gate.heldBytes === 0) this.stopStallCheck();
  }

  private stopStallCheck(): void {
    if (this.stallCheck) clearInterval(this.stallCheck);
    this.stallCheck = null;
  }

  /** Refused whole, and said so to each client whose input it was. */
  private refuseInput(batches: Array<Pick<InputBatch<DataClient>, 'owner' | 'bytes'>>): void {
    this.log.warn('input-rejected', { bytes: batches.reduce((n, b) => n + b.bytes, 0) });
    for (const owner of new Set(batches.map((b) => b.owner))) owner.conn.send({ t: 'inputRejected', reason: 'queue-full' });
  }

  /** Resize is desired state (SPEC §7): the model and the PTY each take the controller's size
   * unless they already have it, so a size the PTY missed is applied when it is asked again. */
  private resize(cols: number, rows: number): void {
    if (cols < 1 || rows < 1 || cols > 1000 || rows > 500) return;
    const child = this.child;
    if (child && (child.cols !== cols || child.rows !== rows)) {
      try {
        child.resize(cols, rows);
      } catch (err) {
        this.log.warn('resize-failed', { code: errorCode(err) });
      }
    }
    if (cols === this.term.cols && rows === this.term.rows) return;
    this.term.resize(cols, rows);
    // Reflow rewrites rows without a parse to report it.
    this.rowCache.markAll();
    for (const c of this.clients) c.sentRows = null;
    this.frames.request();
    this.broadcastState();
  }

  // ---- frames ----

  private currentRows(): Row[] {
    return this.rowCache.current(this.term.rows);
  }

  private sendFrames(): void {
    let current: Row[] | null = null;
    for (const c of this.clients) {
      if (!c.attached) continue;
      if (c.conn.pendingBytes >= LANE_HIGH_WATER_BYTES) {
        c.behind = true;
        continue;
      }
      current ??= this.currentRows();
      this.sendFrameTo(c, current);
    }
  }

  private sendFrameTo(client: DataClient, current: Row[]): void {
    const sent = client.sentRows;
    const full = sent === null || sent.length !== current.length;
    const lines = changedRows(sent, current).map((y) => current[y]);
    const patch: SurfacePatch = {
      full,
      cols: this.term.cols,
      rows: this.term.rows,
      lines,
      cursor: extractCursor(this.term, this.modes),
      modes: this.modes.modes,
      title: this.title,
    };
    const meta = JSON.stringify([patch.cursor, patch.modes, patch.title]);
    if (!full && lines.length === 0 && meta === client.sentMeta) return;
    client.sentRows = current;
    client.sentMeta = meta;
    client.conn.send({ t: 'surface', patch });
  }

  // ---- termination ----

  /** Ends every process in the child's session: SIGHUP and SIGCONT to each process group,
   * a grace window, then SIGKILL, each signal preceded by a start-time check (SPEC §15). */
  async terminate(graceMs: number): Promise<void> {
    if (this.terminating) return;
    this.terminating = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.refuseStartingInput();
    if (this.statusTimer) clearInterval(this.statusTimer);
    this.log.info('terminate', { graceMs });
    if (this.childSid !== null) {
      // The same verified plan a server close makes: only the child's session, led by the child
      // this holder started (never a session that got its pid since).
      const self = procStartTime(process.pid);
      const plan = planRetirement(
        {
          tab: {
            tabId: this.init.tabId,
            agent: false,
            bound: self === null ? [] : [{ pid: process.pid, startTime: self }],
            sessions: [{ pid: this.childSid, startTime: this.childStart }],
          },
          otherTabs: [],
          processes: snapshotProcesses(),
          records: [],
          protectedPids: [process.pid, 1],
        },
        'cleanup',
      );
      await executeTermination(plan, { graceMs, io: this.terminateIO });
    }
    this.shutdown(0);
  }

  shutdown(code: number): void {
    this.stopStallCheck();
    this.frames.dispose();
    if (this.titleTimer) clearTimeout(this.titleTimer);
    for (const c of this.clients) c.conn.close();
    this.server?.close();
    this.listener.close();
    this.bridge.close();
    this.onDone(code);
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
