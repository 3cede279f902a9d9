// The holder's viewing clients (SPEC §6, §7): each connected by ticket on the data plane, viewing
// once it attaches, typing and resizing while it controls the tab, reading history in copy mode.
// Each gets the rows that changed since its last frame, on a lane that never grows without bound.
import type { Connection } from '../protocol/connection.js';
import type { DataToClient, DataToHolder } from '../protocol/messages.js';
import { unhandled } from '../protocol/schema.js';
import type { Row } from '../surface/types.js';
import type { InputEvent } from '../input/events.js';
import type { Logger } from '../log.js';
import { takeArmedFault } from '../diag/testFaults.js';
import type { TerminalModel } from './terminalModel.js';
import type { Controller, HolderStateView } from './holderState.js';
import { Emitter } from '../emitter.js';
import type { Disposable } from '../disposable.js';

/** A client lane holding more than this many unsent bytes is behind: it gets no new frame
 * until it drains, then one frame with everything that changed (single-slot lane). */
export const LANE_HIGH_WATER_BYTES = 256 * 1024;

/** A viewing client's data-plane connection, as the holder sees it. */
export type DataConnection = Connection<DataToHolder, DataToClient>;

export interface DataClient {
  conn: DataConnection;
  clientId: string;
  /** The optional data-plane methods the client listed in its handshake. */
  methods: readonly string[];
  attached: boolean;
  /** The rows this client last received, to send only what changed since. */
  sentRows: Row[] | null;
  sentMeta: string;
  behind: boolean;
}

export interface ClientsDeps {
  readonly log: Logger;
  readonly model: TerminalModel;
  /** The state and the controller each attaching client is told. */
  readonly view: HolderStateView;
  /** Test-only (A1_TEST_ATTACH_DELAY_MS in the tab's environment): the answer to an attach comes
   * this much later, as from a holder under load, so a test can type into a client's wait for it. */
  readonly attachDelayMs: number;
}

/** The controller's keys, at the controller's revision; `scripted`: typed all at once by a script
 * or the page's compose line, not key by key. */
export interface TypedInput {
  client: DataClient;
  events: InputEvent[];
  scripted: boolean;
}

export class DataClients implements Disposable {
  private readonly clients = new Set<DataClient>();
  /** Attaches answered late (attachDelayMs), each cleared at dispose. */
  private readonly attachTimers = new Set<NodeJS.Timeout>();
  private readonly typed = new Emitter<TypedInput>();
  readonly onInput = this.typed.event;
  private readonly resized = new Emitter<{ cols: number; rows: number }>();
  /** The controller's size (SPEC §7: desired state). */
  readonly onResize = this.resized.event;
  private readonly viewersChanged = new Emitter();
  /** Someone started or stopped viewing the tab. */
  readonly onViewersChange = this.viewersChanged.event;
  private disposed = false;

  constructor(private readonly deps: ClientsDeps) {}

  add(conn: DataConnection, clientId: string, methods: readonly string[]): void {
    // A handshake that finished after the holder began shutting down.
    if (this.disposed) return conn.close();
    const client: DataClient = { conn, clientId, methods, attached: false, sentRows: null, sentMeta: '', behind: false };
    this.clients.add(client);
    // A newer client's message this holder lacks is dropped; the view goes on (SPEC §6).
    const offSkipped = conn.onSkipped(() => {
      offSkipped();
      this.deps.log.warn('client-message-skipped');
    });
    conn.onClose(() => {
      this.clients.delete(client);
      this.viewersChanged.fire();
    });
    conn.onDrain(() => {
      if (client.behind && conn.pendingBytes < LANE_HIGH_WATER_BYTES) {
        client.behind = false;
        this.deps.log.info('client-resync');
        this.sendFrameTo(client, this.deps.model.currentRows());
      }
    });
    conn.onMessage((msg) => this.onMessage(client, msg));
  }

  private onMessage(client: DataClient, msg: DataToHolder): void {
    switch (msg.t) {
      case 'attach': {
        const delayMs = this.deps.attachDelayMs;
        if (delayMs > 0) this.attachLater(client, delayMs);
        else this.onAttach(client);
        return;
      }
      case 'input':
        if (!this.isController(client, msg.rev)) {
          client.conn.send({ t: 'inputRejected', reason: 'read-only' });
          return;
        }
        this.typed.fire({ client, events: msg.events, scripted: msg.scripted === true });
        return;
      case 'resize':
        if (!this.isController(client, msg.rev)) return;
        if (takeArmedFault('drop-resize')) return this.deps.log.warn('test-resize-dropped');
        this.resized.fire({ cols: msg.cols, rows: msg.rows });
        return;
      // Copy mode: read-only and per client, so any client may ask, controller or not.
      case 'history': {
        const page = this.deps.model.historyPage(msg.from, msg.count);
        client.conn.send({ t: 'historyPage', reqId: msg.reqId, ...page });
        return;
      }
      case 'search': {
        const direction = msg.direction === 'backward' ? 'backward' : 'forward';
        const result = this.deps.model.search(msg.text, direction, msg.from ?? undefined);
        client.conn.send({ t: 'searchResult', reqId: msg.reqId, ...result });
        return;
      }
      default:
        unhandled(msg);
    }
  }

  private attachLater(client: DataClient, delayMs: number): void {
    const timer = setTimeout(() => {
      this.attachTimers.delete(timer);
      if (this.clients.has(client)) this.onAttach(client);
    }, delayMs);
    this.attachTimers.add(timer);
  }

  /** A client views the tab: it gets the state, who controls the tab, and the whole surface. */
  private onAttach(client: DataClient): void {
    client.attached = true;
    this.viewersChanged.fire();
    client.sentRows = null;
    client.conn.send({ t: 'state', state: this.deps.view.state() });
    client.conn.send({ t: 'controller', ...this.deps.view.controller });
    this.sendFrameTo(client, this.deps.model.currentRows());
  }

  private isController(client: DataClient, rev: number): boolean {
    const controller = this.deps.view.controller;
    return controller.clientId === client.clientId && controller.rev === rev;
  }

  /** Takes the controller the server chose and tells the viewing clients. */
  setController(controller: Controller): void {
    this.deps.view.controller = controller;
    this.sendToAttached({ t: 'controller', ...controller });
  }

  anyAttached(): boolean {
    return [...this.clients].some((c) => c.attached);
  }

  /** To every attached client (`method`: only those that listed it in their handshake). */
  sendToAttached(msg: DataToClient, method?: string): void {
    for (const c of this.clients) if (c.attached && (method === undefined || c.methods.includes(method))) c.conn.send(msg);
  }

  /** After a reflow every client needs a whole frame. */
  forgetSentRows(): void {
    for (const c of this.clients) c.sentRows = null;
  }

  sendFrames(): void {
    let current: Row[] | null = null;
    for (const c of this.clients) {
      if (!c.attached) continue;
      if (c.conn.pendingBytes >= LANE_HIGH_WATER_BYTES) {
        c.behind = true;
        continue;
      }
      current ??= this.deps.model.currentRows();
      this.sendFrameTo(c, current);
    }
  }

  private sendFrameTo(client: DataClient, current: Row[]): void {
    const frame = this.deps.model.frameFor(client.sentRows, client.sentMeta, current);
    if (!frame) return;
    client.sentRows = frame.rows;
    client.sentMeta = frame.meta;
    client.conn.send({ t: 'surface', patch: frame.patch });
  }

  /** Closes every client's connection; one whose handshake finishes later is closed at once. */
  dispose(): void {
    this.disposed = true;
    for (const timer of this.attachTimers) clearTimeout(timer);
    this.attachTimers.clear();
    for (const c of this.clients) c.conn.close();
    this.typed.dispose();
    this.resized.dispose();
    this.viewersChanged.dispose();
  }
}
