// One tab's holder (SPEC §7): owns the PTY, the child and the terminal model; serves the
// server (control, authenticated both ways) and viewing clients (data plane, by ticket). Along
// VS Code's pty host, this file only composes the parts, each built from parts built before it:
// the child's slot (childSlot.ts), the terminal model (terminalModel.ts), the agent's status
// (agentStatus.ts), the viewing clients (dataClients.ts, clientInput.ts, peers.ts), the lost
// prompt (promptOffer.ts), the child under supervision (supervisedChild.ts over childProcess.ts
// and the pure supervisor.ts), the server link (serverLink.ts) and the socket paths
// (socketKeeper.ts). What a part must hear from a later one comes as an event, subscribed once
// all exist. Everything the holder holds is in one store, and shutdown releases it.
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
import { DataClients } from './dataClients.js';
import { ClientInput } from './clientInput.js';
import { PromptOffer, type KeyPhases } from './promptOffer.js';
import { ServerLink, type ServerLinkDeps } from './serverLink.js';
import { AgentStatus } from './agentStatus.js';
import { PeerGate, type PeerKeys } from './peers.js';
import { SupervisedChild } from './supervisedChild.js';
import { ChildSlot, type ChildView } from './childSlot.js';
import { HolderStateView } from './holderState.js';
import { StatePublisher } from './statePublisher.js';
import { SocketKeeper } from './socketKeeper.js';
import type { HolderInit } from '../protocol/holderInit.js';
import { WATCHDOG_TICK_MS } from '../diag/watchdog.js';
import { DisposableStore, toDisposable, type Disposable } from '../disposable.js';

/** How often the clock-driven glyphs (unresponsive, stalled) and the heartbeat restart are checked;
 * the stall watchdog measures on the same tick (holder/main.ts), so it must be the watchdog's. */
const STATUS_TICK_MS = WATCHDOG_TICK_MS;
/** How often a test-only hang looks whether it may end. */
const TEST_HANG_POLL_MS = 50;
/** Sizes beyond these are no terminal's: a resize asking for one is ignored. */
const MAX_COLS = 1000;
const MAX_ROWS = 500;

export interface HolderDeps {
  init: HolderInit;
  log: Logger;
  /** Called once, after everything was released: main.ts exits the process with `code`. */
  onDone(code: number): void;
  terminateIO?: TerminateIO;
  /** Called on every status tick: the stall watchdog's measurement, on the same wakeup. */
  onTick?(): void;
  /** A test's look at the server and start of a replacement (ServerLink). */
  serverWatch?: Pick<ServerLinkDeps, 'probe' | 'startServer'>;
}

/** The start was cut short by a shutdown (a close during it). */
export class HolderShutDownError extends Error {
  readonly code = 'holder-shut-down';
  constructor() {
    super('The holder shut down while it started.');
  }
}

/** Whether a resize asks for a size a terminal can have. */
export function isPlausibleSize(cols: number, rows: number): boolean {
  return cols >= 1 && rows >= 1 && cols <= MAX_COLS && rows <= MAX_ROWS;
}

export class Holder {
  /** Everything the holder holds; shutdown disposes it. */
  private readonly store = new DisposableStore();
  private readonly slot = new ChildSlot();
  private readonly model: TerminalModel;
  private readonly agent: AgentStatus;
  private readonly view: HolderStateView;
  private readonly clients: DataClients;
  private readonly frames: FrameClock;
  private readonly offer: PromptOffer;
  private readonly input: ClientInput<KeyPhases>;
  private readonly child: SupervisedChild;
  private readonly link: ServerLink;
  private readonly publisher: StatePublisher;
  private readonly listener: UnixListener;
  private readonly bridge: BridgeListener;
  private readonly keeper: SocketKeeper;
  private statusClock: Disposable | null = null;
  /** Ends the start's waits at shutdown. */
  private readonly startWaits = this.store.add(abortOnDispose());

  constructor(private readonly deps: HolderDeps) {
    const { init, log } = deps;
    const { store, slot } = this;
    const bridgeKey = Buffer.from(init.bridgeKey, 'base64');
    const model = (this.model = store.add(new TerminalModel(init, slot)));
    const agent = (this.agent = new AgentStatus(init.agentKind, init, slot));
    const view = (this.view = new HolderStateView(init, slot, model, agent));
    const attachDelayMs = Number(init.env.A1_TEST_ATTACH_DELAY_MS) || 0;
    const clients = (this.clients = store.add(new DataClients({ log, model, view, attachDelayMs })));
    const frames = (this.frames = store.add(new FrameClock(() => clients.sendFrames())));
    const offer = (this.offer = new PromptOffer({ log, agent, model, child: slot, viewers: clients }));
    const input = (this.input = store.add(new ClientInput(init.inputQueueBytes, { log, model, child: slot, frames, agent, offer })));
    const terminateIO = deps.terminateIO ?? realTerminateIO;
    const childDeps = { init, log, terminateIO, bridgeKey, slot, model, input, offer, agent, viewers: clients, frames };
    const child = (this.child = store.add(new SupervisedChild(childDeps)));
    const link = (this.link = store.add(new ServerLink({ log, init, view, child: slot, clients, supervised: child, ...deps.serverWatch })));
    const publisher = (this.publisher = store.add(new StatePublisher(view, link, clients, slot)));
    const peers = store.add(new PeerGate(peerKeys(init), log, { server: (c) => link.adopt(c), client: (c, id, m) => clients.add(c, id, m) }));
    this.listener = new UnixListener(init.socketPath, (socket) => peers.accept(socket), listenerEvents(log));
    const runsInTab = (pids: number[]) => reportsFromTab(slot, pids);
    const onReport = reportApplier(agent, offer, publisher);
    this.bridge = new BridgeListener(init.bridgeSocketPath, bridgeKey, () => slot.runningInc(), runsInTab, onReport, log);
    this.keeper = store.add(new SocketKeeper({ log, listener: this.listener, bridge: this.bridge, agent, child: slot }));
    this.subscribe();
  }

  /** What the parts hear from parts built after them. */
  private subscribe(): void {
    const { store, model, agent, clients, child, link, publisher, input } = this;
    store.add(model.onTitleChange(() => publisher.titleChanged()));
    store.add(model.onClipboard((sequence) => clients.sendToAttached({ t: 'clipboard', sequence })));
    store.add(agent.onGlyphChange(() => publisher.publish()));
    store.add(child.onChange(() => publisher.publish()));
    store.add(clients.onInput(({ client, events, scripted }) => input.offer(client, events, scripted)));
    store.add(clients.onResize(({ cols, rows }) => this.resize(cols, rows)));
    store.add(clients.onViewersChange(() => this.onViewersChanged()));
    store.add(link.onTerminate((graceMs) => void this.terminate(graceMs)));
  }

  /** Binds the sockets and starts the child. A shutdown during any of its waits ends it with
   * HolderShutDownError, having started nothing more. */
  async start(): Promise<{ pid: number; childPid: number | null }> {
    const { env } = this.deps.init;
    // Test-only (A1_TEST_HOLDER_LISTEN_DELAY_MS in the tab's environment): the holder runs this
    // long before its socket answers, so a test can kill its server inside that window.
    const listenDelayMs = Number(env.A1_TEST_HOLDER_LISTEN_DELAY_MS) || 0;
    if (listenDelayMs > 0) await this.wait(listenDelayMs);
    this.throwIfShutDown();
    await this.listener.listen();
    // Registered once bound: a store disposed meanwhile closes it at once.
    this.store.add(toDisposable(() => this.listener.close()));
    this.throwIfShutDown();
    await this.bridge.listen();
    this.store.add(toDisposable(() => this.bridge.close()));
    // Test-only (A1_TEST_PTY_HANG_WHILE in the tab's environment): PTY creation hangs while the
    // file it names exists, so a test can prove the server's start deadline and replacement (SPEC
    // §10). A file, not a time: a replacement holder gets the same environment.
    const hangWhile = env.A1_TEST_PTY_HANG_WHILE;
    while (hangWhile && fs.existsSync(hangWhile) && !this.store.isDisposed) await this.wait(TEST_HANG_POLL_MS);
    this.throwIfShutDown();
    const timer = setInterval(() => this.onStatusTick(), STATUS_TICK_MS);
    timer.unref();
    this.statusClock = this.store.add(toDisposable(() => clearInterval(timer)));
    this.child.start();
    return { pid: process.pid, childPid: this.slot.pid };
  }

  /** Waits `ms`, or less when the holder shuts down meanwhile. */
  private async wait(ms: number): Promise<void> {
    await delay(ms, undefined, { signal: this.startWaits.signal }).catch(() => undefined);
  }

  private throwIfShutDown(): void {
    if (this.store.isDisposed) throw new HolderShutDownError();
  }

  /** Clock-driven states, and the restart of a child that heartbeats and then goes silent. */
  private onStatusTick(): void {
    this.deps.onTick?.();
    this.keeper.tick();
    this.agent.refresh();
    this.offer.tick(Date.now());
    this.child.tick(Date.now());
  }

  private onViewersChanged(): void {
    const viewed = this.clients.anyAttached();
    if (viewed !== this.agent.viewed) this.agent.note({ k: 'viewed', viewed, at: Date.now() });
  }

  state(): HolderState {
    return this.view.state();
  }

  /** Resize is desired state (SPEC §7): the model and the PTY each take the controller's size. */
  private resize(cols: number, rows: number): void {
    if (!isPlausibleSize(cols, rows)) return;
    this.child.resize(cols, rows);
    if (!this.model.resize(cols, rows)) return;
    this.clients.forgetSentRows();
    this.frames.request();
    this.publisher.publish();
  }

  /** Ends every process in the child's session (SPEC §15), then this holder. */
  async terminate(graceMs: number): Promise<void> {
    if (this.slot.terminating || this.store.isDisposed) return;
    this.child.beginTermination();
    this.statusClock?.dispose();
    this.deps.log.info('terminate', { graceMs });
    await this.child.endSession(graceMs);
    this.shutdown(0);
  }

  /** Releases everything the holder holds, then reports `code` once; later calls do nothing. */
  shutdown(code: number): void {
    if (this.store.isDisposed) return;
    try {
      this.store.dispose();
    } catch (err) {
      this.deps.log.warn('shutdown-failed', { code: errorCode(err) });
    }
    this.deps.onDone(code);
  }
}

/** Applies an agent's report; false for one about another session (Codex's title thread). */
function reportApplier(agent: AgentStatus, offer: PromptOffer, publisher: StatePublisher): (report: BridgeReport) => boolean {
  return (report) => {
    if (!agent.report(report)) return false;
    offer.reported(report.state, Date.now());
    publisher.publish();
    return true;
  };
}

function abortOnDispose(): AbortController & Disposable {
  const controller = new AbortController();
  return Object.assign(controller, { dispose: () => controller.abort() });
}

function peerKeys(init: HolderInit): PeerKeys {
  const key = (base64: string) => Buffer.from(base64, 'base64');
  return { tabId: init.tabId, holderInc: init.holderInc, holderKey: key(init.holderKey), ticketKey: key(init.ticketKey) };
}

function listenerEvents(log: Logger) {
  return {
    error: (err: Error) => log.warn('listen-error', { code: errorCode(err) }),
    restoreFailed: (err: unknown) => log.warn('socket-restore-failed', { code: errorCode(err) }),
  };
}

/** Whether a reporting process (and the parents it names) runs in the tab's own session. */
function reportsFromTab(child: ChildView, pids: number[]): boolean {
  const sid = child.sessionId;
  return sid !== null && !pids.some(servesOtherTabs) && pids.some((pid) => descendsFromSession(pid, sid, servesOtherTabs));
}

/** A process the tab's agent started that serves other tabs' agents too (Codex's shared
 * app-server): a report it ran does not speak for this tab, though the hook names it and its
 * parent, the tab's own Codex (issue 28). */
function servesOtherTabs(pid: number): boolean {
  const argv = procArgv(pid);
  return argv !== null && isSharedAgentServer(argv);
}
