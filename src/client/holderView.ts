// The client's data-plane connection to the viewed tab's holder (SPEC §3): surface
// patches in, input and resize out, admitted by a server-issued ticket.
import { connectUnix, type Connection } from '../protocol/connection.js';
import { connectHandshake } from '../protocol/handshake.js';
import { PeerMethods } from '../protocol/methods.js';
import { dataSchema, type DataToClient, type DataToHolder, type HolderState, type HistoryPageMsg, type SearchResultMsg } from '../protocol/messages.js';
import { unhandled } from '../protocol/schema.js';
import type { SurfacePatch } from '../surface/types.js';
import type { InputEvent } from '../input/events.js';
import type { Ticket } from '../security.js';

const DATA_CONNECT_TIMEOUT_MS = 2_000;
/** A size the holder has not reported back is sent again after this, then at twice the pause
 * each time up to RESIZE_RETRY_MAX_MS: long enough for a loaded holder's answer to arrive. */
const RESIZE_RETRY_FIRST_MS = 250;
const RESIZE_RETRY_MAX_MS = 4_000;

export type HistoryReply = Omit<HistoryPageMsg, 't' | 'reqId'>;
export type SearchReply = Omit<SearchResultMsg, 't' | 'reqId'>;

/** A view that closed with copy-mode requests outstanding rejects them with this. */
export class ViewClosedError extends Error {
  readonly code = 'view-closed';
  constructor() {
    super('The connection to the tab closed.');
  }
}

export interface HolderViewEvents {
  patch(patch: SurfacePatch): void;
  state(state: HolderState): void;
  controller(c: { clientId: string | null; rev: number }): void;
  rejected(reason: string): void;
  /** The child's OSC 52 clipboard write, as the sequence to send to the outer terminal. */
  clipboard?(sequence: string): void;
  /** A prompt the previous child lost was put back in the input (typed) or could not be. */
  promptOffer?(typed: boolean): void;
  closed(): void;
}

export class HolderView {
  private controller = { clientId: null as string | null, rev: 0 };
  /** Set by the holder's first `controller` message (its answer to `attach`): until then
   * isController and controllerFree are guesses from the initial value, not the holder's word. */
  private controllerHeard = false;
  /** Copy-mode requests awaiting their reply, by reqId (replies carry it back). */
  private readonly requests = new Map<number, { resolve(reply: unknown): void; reject(err: Error): void }>();
  private nextReqId = 1;
  private closed = false;
  /** The size this client, as controller, last asked for, and the size the holder last reported:
   * resize is desired state (SPEC §7), sent again until the two agree. */
  private wantedSize: { cols: number; rows: number } | null = null;
  private reportedSize: { cols: number; rows: number } | null = null;
  private resizeRetry: NodeJS.Timeout | null = null;
  private resizeRetryMs = RESIZE_RETRY_FIRST_MS;

  private constructor(
    private readonly conn: Connection<DataToClient, DataToHolder>,
    readonly tabId: string,
    private readonly clientId: string,
    /** What the holder said it offers in its handshake. */
    private readonly methods: PeerMethods,
    on: HolderViewEvents,
  ) {
    conn.onMessage((m) => {
      switch (m.t) {
        case 'surface':
          on.patch(m.patch);
          break;
        case 'state': {
          const state = m.state;
          this.reportedSize = { cols: state.cols, rows: state.rows };
          this.settleSize();
          on.state(state);
          break;
        }
        case 'controller':
          this.controller = { clientId: m.clientId ?? null, rev: m.rev };
          this.controllerHeard = true;
          this.settleSize();
          on.controller(this.controller);
          break;
        case 'inputRejected':
          on.rejected(m.reason);
          break;
        case 'clipboard':
          on.clipboard?.(m.sequence);
          break;
        case 'promptOffer':
          on.promptOffer?.(m.typed);
          break;
        case 'historyPage':
        case 'searchResult': {
          const { t: _t, reqId, ...reply } = m;
          const waiting = this.requests.get(reqId);
          this.requests.delete(reqId);
          waiting?.resolve(reply);
          break;
        }
        default:
          unhandled(m);
      }
    });
    conn.onClose(() => {
      this.closed = true;
      this.stopResizeRetry();
      const waiting = [...this.requests.values()];
      this.requests.clear();
      for (const w of waiting) w.reject(new ViewClosedError());
      on.closed();
    });
  }

  static async open(
    opts: { socketPath: string; ticket: Ticket; proofKey: string; tabId: string; clientId: string; cols: number; rows: number },
    on: HolderViewEvents,
  ): Promise<HolderView> {
    const conn = await connectUnix<DataToClient, DataToHolder>(opts.socketPath, dataSchema, DATA_CONNECT_TIMEOUT_MS);
    let methods: PeerMethods;
    try {
      const peer = await connectHandshake(conn, {
        role: 'data',
        key: Buffer.from(opts.proofKey, 'base64'),
        methods: ['surface', 'input', 'resize', 'history', 'promptOffer'],
        extra: { ticket: opts.ticket },
        timeoutMs: DATA_CONNECT_TIMEOUT_MS,
      });
      methods = new PeerMethods(peer.peerMethods);
    } catch (err) {
      conn.close();
      throw err;
    }
    const view = new HolderView(conn, opts.tabId, opts.clientId, methods, on);
    conn.send({ t: 'attach', cols: opts.cols, rows: opts.rows });
    return view;
  }

  get isController(): boolean {
    return this.controller.clientId === this.clientId;
  }

  /** Whether the holder has said who controls the tab yet. */
  get controllerKnown(): boolean {
    return this.controllerHeard;
  }

  get controllerFree(): boolean {
    return this.controller.clientId === null;
  }

  /** `scripted`: typed all at once by a script, not by a person key by key. */
  input(events: InputEvent[], scripted = false): void {
    if (events.length > 0) this.conn.send({ t: 'input', rev: this.controller.rev, events, ...(scripted ? { scripted } : {}) });
  }

  /** Asks for the tab's size, and keeps asking until the holder reports it (a resize can be lost
   * with its connection, or land before the holder knew this client controls the tab). */
  resize(cols: number, rows: number): void {
    this.wantedSize = { cols, rows };
    this.resizeRetryMs = RESIZE_RETRY_FIRST_MS;
    this.stopResizeRetry();
    this.conn.send({ t: 'resize', rev: this.controller.rev, cols, rows });
    this.settleSize();
  }

  /** Level-triggered: while the holder's reported size differs from the wanted one and this
   * client still controls the tab, a retry is armed; once they agree (or control moved on), none is. */
  private settleSize(): void {
    const want = this.wantedSize;
    const have = this.reportedSize;
    const settled = !want || !this.isController || this.closed || (have !== null && have.cols === want.cols && have.rows === want.rows);
    if (settled) {
      this.stopResizeRetry();
      this.resizeRetryMs = RESIZE_RETRY_FIRST_MS;
      return;
    }
    if (this.resizeRetry) return;
    this.resizeRetry = setTimeout(() => {
      this.resizeRetry = null;
      const again = this.wantedSize;
      if (!again || !this.isController || this.closed) return;
      this.conn.send({ t: 'resize', rev: this.controller.rev, cols: again.cols, rows: again.rows });
      this.resizeRetryMs = Math.min(this.resizeRetryMs * 2, RESIZE_RETRY_MAX_MS);
      this.settleSize();
    }, this.resizeRetryMs);
    this.resizeRetry.unref();
  }

  private stopResizeRetry(): void {
    if (this.resizeRetry) clearTimeout(this.resizeRetry);
    this.resizeRetry = null;
  }

  /** Whether the holder offers `method` (an older holder may lack one this client knows). */
  offers(method: string): boolean {
    return this.methods.has(method);
  }

  /** Lines `from .. from + count - 1` of the tab's history (copy mode; read-only, any client). */
  history(from: number, count: number): Promise<HistoryReply> {
    return this.request<HistoryReply>({ t: 'history', from, count });
  }

  /** Every match of `text` in the tab's history, scanned from `from` in `direction`. */
  search(text: string, direction: 'forward' | 'backward', from?: number): Promise<SearchReply> {
    return this.request<SearchReply>({ t: 'search', text, direction, ...(from === undefined ? {} : { from }) });
  }

  close(): void {
    this.stopResizeRetry();
    this.conn.close();
  }

  private request<T>(msg: DistributiveOmit<Extract<DataToHolder, { t: 'history' | 'search' }>, 'reqId'>): Promise<T> {
    if (this.closed) return Promise.reject(new ViewClosedError());
    const reqId = this.nextReqId++;
    return new Promise<T>((resolve, reject) => {
      this.requests.set(reqId, { resolve: resolve as (reply: unknown) => void, reject });
      this.conn.send({ ...msg, reqId } as Extract<DataToHolder, { t: 'history' | 'search' }>);
    });
  }
}

/** Omit over each member of a union, so each keeps its own `t`. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
