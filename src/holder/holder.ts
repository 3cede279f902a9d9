// One tab's holder (SPEC §7): owns the PTY, the child and the terminal model; serves the
// server (control, authenticated both ways) and viewing clients (data plane, by ticket). Along
// VS Code's pty host, this file only wires the parts: the child under supervision
// (supervisedChild.ts over childProcess.ts and the pure supervisor.ts), the terminal model
// (terminalModel.ts), the server link (serverLink.ts), the viewing clients (peers.ts,
// dataClients.ts, clientInput.ts), the agent's status (agentStatus.ts) and the lost prompt
// (promptOffer.ts).
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { HolderState } from '../protocol/messages.js';
import { UnixListener } from '../protocol/unixListener.js';
import { descendsFromSession, procArgv } from '../proc.js';
import { isSharedAgentServer } from '../lifecycle/agents.js';
import { BridgeListener, type BridgeReport } from './bridge.js';
import { realTerminateIO, type TerminateIO } from '../lifecycle/terminate.js';
import { FrameClock } from './frameClock.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { TerminalModel } from './terminalModel.js';
import { DataClients, type Controller } from './dataClients.js';
import { ClientInput } from './clientInput.js';
import { PromptOffer, PROMPT_OFFER_METHOD, type KeyPhases } from './promptOffer.js';
import { ServerLink } from './serverLink.js';
import { AgentStatus } from './agentStatus.js';
import { PeerGate } from './peers.js';
import { SupervisedChild } from './supervisedChild.js';
import type { HolderInit } from '../protocol/holderInit.js';
import { WATCHDOG_TICK_MS } from '../diag/watchdog.js';

/** How often the clock-driven glyphs (unresponsive, stalled) and the heartbeat restart are checked;
 * the stall watchdog measures on the same tick (holder/main.ts), so it must be the watchdog's. */
const STATUS_TICK_MS = WATCHDOG_TICK_MS;
/** The holder's own socket path is looked at every this many ticks: SPEC §4 asks for it back
 * within one heartbeat (5 s), and a look at every tick was a fifth of a printing tab's idle CPU.
 * The bridge is looked at every tick: while it is down the agent's silence must not count. */
const SOCKET_CHECK_TICKS = 5;
/** Title changes reach the server at most this often: some agents animate their title, and
 * the picker only needs the latest. */
const TITLE_REPORT_INTERVAL_MS = 500;
/** How often a test-only hang looks whether it may end. */
const TEST_HANG_POLL_MS = 50;

export class Holder {
  private readonly model: TerminalModel;
  private readonly child: SupervisedChild;
  private titleTimer: NodeJS.Timeout | null = null;
  private titleReportedAt = 0;
  private controller: Controller = { clientId: null, rev: 0 };
  private readonly link: ServerLink;
  private readonly clients: DataClients;
  private readonly input: ClientInput<KeyPhases>;
  private readonly offer: PromptOffer;
  private readonly frames: FrameClock;
  private readonly listener: UnixListener;
  private readonly bridge: BridgeListener;
  private bridgeRestoring = false;
  /** Status ticks so far: the socket check runs on every SOCKET_CHECK_TICKS-th. */
  private ticks = 0;
  private readonly agent: AgentStatus;
  private statusTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly init: HolderInit,
    private readonly log: Logger,
    private readonly onDone: (code: number) => void,
    terminateIO: TerminateIO = realTerminateIO,
    /** Called on every status tick: the stall watchdog's measurement, on the same wakeup. */
    private readonly onTick: () => void = () => undefined,
  ) {
    const bridgeKey = Buffer.from(init.bridgeKey, 'base64');
    this.agent = new AgentStatus(init.agentKind, init, () => this.child.lifecycle === 'running', () => this.broadcastState());
    this.bridge = new BridgeListener(
      init.bridgeSocketPath,
      bridgeKey,
      () => this.child.runningInc(),
      (pids) => this.child.sessionId !== null && !pids.some(servesOtherTabs) && pids.some((pid) => descendsFromSession(pid, this.child.sessionId!, servesOtherTabs)),
      (report) => this.onBridgeReport(report),
      log,
    );
    this.model = new TerminalModel(init, {
      reply: (data) => this.child.writer?.write(data),
      titleChanged: () => this.reportTitle(),
      clipboard: (sequence) => this.clients.sendToAttached({ t: 'clipboard', sequence }),
    });
    this.clients = new DataClients({
      log,
      model: this.model,
      attachDelayMs: Number(init.env.A1_TEST_ATTACH_DELAY_MS) || 0,
      state: () => this.state(),
      controller: () => this.controller,
      input: (client, events, scripted) => this.input.offer(client, events, scripted),
      resize: (cols, rows) => this.resize(cols, rows),
      viewersChanged: () => this.onViewersChanged(),
    });
    this.input = new ClientInput(init.inputQueueBytes, {
      log,
      model: this.model,
      writer: () => this.child.writer,
      running: () => this.child.lifecycle === 'running' && this.child.writer !== null,
      starting: () => this.child.lifecycle === 'starting',
      closing: () => this.child.terminating,
      outputAt: () => this.child.outputAt,
      typed: () => this.frames.expediteNext(),
      interruptTyped: (key) => this.child.interruptTyped(key),
      readKeys: (presses) => this.agent.readKeys(presses),
      admitted: (presses, phases, bracketedPaste) => this.offer.admitted(presses, phases, bracketedPaste),
    });
    this.offer = new PromptOffer({
      log,
      agentKind: () => this.agent.kind,
      modes: () => this.model.modes.modes,
      type: (data) => (this.child.writer ? (this.child.writer.write(data), true) : false),
      outputAt: () => this.child.outputAt,
      tell: (typed) => this.clients.sendToAttached({ t: 'promptOffer', typed }, PROMPT_OFFER_METHOD),
    });
    this.child = new SupervisedChild({
      init,
      log,
      terminateIO,
      bridgeKey,
      model: this.model,
      input: this.input,
      offer: this.offer,
      agent: this.agent,
      tellAttached: (msg) => this.clients.sendToAttached(msg),
      frame: () => this.frames.request(),
      broadcastState: () => this.broadcastState(),
    });
    this.link = new ServerLink(init.epoch, {
      log,
      serverSocketPath: init.serverSocketPath,
      writerLockPath: init.writerLockPath,
      profile: init.profile,
      state: () => this.state(),
      terminating: () => this.child.terminating,
      anyAttached: () => this.clients.anyAttached(),
      setController: (controller) => {
        this.controller = controller;
        this.clients.sendToAttached({ t: 'controller', ...controller });
      },
      terminate: (graceMs) => void this.terminate(graceMs),
      restartChild: (fresh, force) => this.child.restart(fresh, force),
      setResume: (resume) => this.child.setResume(resume),
    });
    this.frames = new FrameClock(() => this.clients.sendFrames());
    const keys = { tabId: init.tabId, holderInc: init.holderInc, holderKey: Buffer.from(init.holderKey, 'base64'), ticketKey: Buffer.from(init.ticketKey, 'base64') };
    const peers = new PeerGate(keys, log, {
      server: (conn) => this.link.adopt(conn),
      client: (conn, clientId, methods) => this.clients.add(conn, clientId, methods),
    });
    this.listener = new UnixListener(init.socketPath, (socket) => peers.accept(socket), {
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
    this.child.start();
    return { pid: process.pid, childPid: this.child.pid };
  }

  // ---- status ----

  /** Clock-driven states, and the restart of a child that heartbeats and then goes silent. */
  private onStatusTick(): void {
    this.onTick();
    if (++this.ticks % SOCKET_CHECK_TICKS === 0) this.keepSocket();
    this.keepBridge();
    this.agent.refresh();
    this.offer.tick(Date.now());
    this.child.tick(Date.now());
  }

  /** A bridge socket that vanished is bound again within one tick (SPEC §4); until it is, the
   * child's silence is not counted against it (SPEC §10: transport loss alone is no hang). */
  private keepBridge(): void {
    if (this.bridgeRestoring || this.child.terminating || this.bridge.inPlace()) return;
    this.bridgeRestoring = true;
    if (!this.agent.bridgeDown) {
      this.log.warn('bridge-lost');
      this.agent.note({ k: 'bridge', up: false, at: Date.now() });
    }
    void this.bridge.restore().then((ok) => {
      this.bridgeRestoring = false;
      if (!ok || this.child.terminating) return;
      this.log.info('bridge-restored');
      this.agent.note({ k: 'bridge', up: true, at: Date.now() });
    });
  }

  /** The holder's own socket, which viewing clients and a replacement server connect to, is
   * bound again within one tick when its path vanished (SPEC §4). */
  private keepSocket(): void {
    if (this.child.terminating || this.listener.inPlace()) return;
    void this.listener.restore().then((ok) => {
      if (ok) this.log.info('socket-restored');
    });
  }

  private onViewersChanged(): void {
    const viewed = this.clients.anyAttached();
    if (viewed !== this.agent.viewed) this.agent.note({ k: 'viewed', viewed, at: Date.now() });
  }

  /** Applies an agent's report; false for one about another session (Codex's title thread). */
  private onBridgeReport(report: BridgeReport): boolean {
    if (!this.agent.report(report)) return false;
    this.offer.reported(report.state, Date.now());
    this.broadcastState();
    return true;
  }

  state(): HolderState {
    const { crashes, ...child } = this.child.snapshot();
    return {
      tabId: this.init.tabId,
      holderInc: this.init.holderInc,
      holderPid: process.pid,
      ...child,
      cols: this.model.cols,
      rows: this.model.rows,
      title: this.model.title,
      controller: this.controller,
      agent: this.agent.snapshot(),
      crashes,
      glyph: this.agent.glyph,
    };
  }

  /** The newest title goes out at most every TITLE_REPORT_INTERVAL_MS, and the last one always. */
  private reportTitle(): void {
    if (this.titleTimer || this.child.terminating) return;
    const wait = this.titleReportedAt + TITLE_REPORT_INTERVAL_MS - Date.now();
    this.titleTimer = setTimeout(() => {
      this.titleTimer = null;
      this.titleReportedAt = Date.now();
      this.broadcastState();
    }, Math.max(0, wait));
  }

  private broadcastState(): void {
    const state = this.state();
    this.link.send({ t: 'state', state });
    this.clients.sendToAttached({ t: 'state', state });
  }

  /** Resize is desired state (SPEC §7): the model and the PTY each take the controller's size. */
  private resize(cols: number, rows: number): void {
    if (cols < 1 || rows < 1 || cols > 1000 || rows > 500) return;
    this.child.resize(cols, rows);
    if (!this.model.resize(cols, rows)) return;
    this.clients.forgetSentRows();
    this.frames.request();
    this.broadcastState();
  }

  /** Ends every process in the child's session (SPEC §15), then this holder. */
  async terminate(graceMs: number): Promise<void> {
    if (this.child.terminating) return;
    this.child.beginTermination();
    if (this.statusTimer) clearInterval(this.statusTimer);
    this.log.info('terminate', { graceMs });
    await this.child.endSession(graceMs);
    this.shutdown(0);
  }

  shutdown(code: number): void {
    this.input.stopTimers();
    this.frames.dispose();
    if (this.titleTimer) clearTimeout(this.titleTimer);
    this.clients.closeAll();
    this.link.close();
    this.listener.close();
    this.bridge.close();
    this.onDone(code);
  }
}

/** A process the tab's agent started that serves other tabs' agents too (Codex's shared
 * app-server): a report it ran does not speak for this tab, though the hook names it and its
 * parent, the tab's own Codex (issue 28). */
function servesOtherTabs(pid: number): boolean {
  const argv = procArgv(pid);
  return argv !== null && isSharedAgentServer(argv);
}
