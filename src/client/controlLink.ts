// A client's link to the server (SPEC §6): the subscription that keeps the tab list and its
// revision current, and quiet reconnection to a replacement when the server dies (SPEC §10).
// Every client has one (the terminal UI, each page of `a1 web`); what a state of the link looks
// like, and which key restarts a stopped server, is each client's own.
import { ServerClient, ServerError, type ArgsOf } from './serverClient.js';
import type { RequestOp, RequestResult } from '../protocol/requests.js';
import type { Paths } from '../paths.js';
import type { ControlToClient, TabInfo } from '../protocol/messages.js';
import { unhandled } from '../protocol/schema.js';
import type { Disposable } from '../disposable.js';

/** Server restarts a client makes on its own within a minute before it shows a stopped state. */
const AUTO_STARTS_PER_MINUTE = 3;
/** Pauses between reconnect attempts: 25 ms doubling up to 250 ms. */
const RECONNECT_FIRST_PAUSE_MS = 25;
const RECONNECT_MAX_PAUSE_MS = 250;

/** The link's state as a client shows it: `reconnecting` once the server is lost (and again after
 * each failed attempt), `stopped` when automatic starts are exhausted (it waits for
 * `allowStart`), `connected` when subscribed to a replacement. */
export type LinkState = 'connected' | 'reconnecting' | 'stopped';

export interface ControlLinkHost {
  readonly paths: Paths;
  readonly profile: string;
  readonly env: NodeJS.ProcessEnv;
  readonly clientId: string;
  /** A page of `a1 web`: read-only until it claims a tab (src/server/core/controller.ts). */
  readonly passive?: boolean;
  /** The client's size (a terminal's, or a page's announced one), sent on subscribing. */
  size(): { cols: number; rows: number };
  /** The tab list changed; `onlyTitle`: nothing but a tab's title did (some agents animate it). */
  onTopology(onlyTitle?: boolean): void;
  /** What the server says to every client (a close that could not end a process, a replaced server). */
  addNotice(text: string): void;
  onLinkState(state: LinkState): void;
  /** The tab this client views, to view again on a replacement server. */
  viewed(): string | null;
  /** The server connection was lost (before any reconnect attempt). */
  onServerLost?(): void;
  /** Subscribed to a replacement server, the viewed tab asked for again (requests sent now follow it). */
  onResubscribed?(): void;
  /** Every tab is being stopped on purpose (`a1 tabs host stop`): no replacement is started. */
  onHostStopping(): void;
}

export class ControlLink implements Disposable {
  tabs: TabInfo[] = [];
  /** The topology revision this client last saw; mutations carry it (SPEC §6). */
  rev = 0;
  /** Automatic server starts are exhausted: the link waits for `allowStart` (the terminal UI's `r`). */
  serverStopped = false;
  private reconnecting = false;
  private autoStarts: number[] = [];
  private disposed = false;

  constructor(
    private server: ServerClient,
    private readonly host: ControlLinkHost,
  ) {}

  request<K extends RequestOp>(op: K, ...args: ArgsOf<K>): Promise<RequestResult<K>> {
    return this.server.request(op, ...args);
  }

  serves(op: string): boolean {
    return this.server.serves(op);
  }

  /** Resolves with the first snapshot of the tabs. */
  subscribe(): Promise<void> {
    const server = this.server;
    return new Promise((resolve, reject) => {
      server.conn.onMessage((msg) => {
        if (this.onControlMessage(msg)) resolve();
      });
      server.conn.onClose(() => {
        reject(new ServerError('disconnected', 'The connection to the a1 server was lost.'));
        if (server === this.server) void this.reconnect();
      });
      server.conn.send({ t: 'subscribe', clientId: this.host.clientId, ...this.host.size(), ...(this.host.passive ? { passive: true } : {}) });
    });
  }

  /** One message from the server; true for the snapshot. */
  private onControlMessage(m: ControlToClient): boolean {
    switch (m.t) {
      case 'snapshot':
        this.rev = m.rev;
        this.tabs = m.tabs;
        for (const n of m.notices) this.host.addNotice(n);
        this.host.onTopology();
        return true;
      case 'tab': {
        this.rev = m.rev;
        const tab = m.tab;
        this.tabs = [...this.tabs.filter((t) => t.id !== tab.id), tab].sort((a, b) => a.ord - b.ord);
        this.host.onTopology();
        break;
      }
      case 'tabStatus': {
        const tab = m.tab;
        const before = this.tabs.find((t) => t.id === tab.id);
        this.tabs = this.tabs.map((t) => (t.id === tab.id ? tab : t));
        this.host.onTopology(sameBesidesTitle(before, tab));
        break;
      }
      case 'tabs':
        this.rev = m.rev;
        this.tabs = m.tabs;
        this.host.onTopology();
        break;
      case 'notice':
        // What the server must say to everyone (a close that could not end a process).
        this.host.addNotice(m.text);
        break;
      case 'hostStopping':
        this.host.onHostStopping();
        break;
      case 'tabRemoved':
        this.rev = m.rev;
        this.tabs = this.tabs.filter((t) => t.id !== m.id);
        this.host.onTopology();
        break;
      case 'reply':
        // Answers to requests: the server client settles them.
        break;
      default:
        unhandled(m);
    }
    return false;
  }

  /** The server died: keep the surface live over the data plane and quietly move to a
   * replacement (SPEC §10). */
  private async reconnect(): Promise<void> {
    if (this.reconnecting || this.disposed) return;
    this.reconnecting = true;
    this.host.onServerLost?.();
    this.host.onLinkState('reconnecting');
    let attempt = 0;
    while (!this.disposed) {
      const now = Date.now();
      this.autoStarts = this.autoStarts.filter((t) => now - t < 60_000);
      const mayStart = this.autoStarts.length < AUTO_STARTS_PER_MINUTE;
      try {
        const server = await ServerClient.connect(this.host.paths, {
          start: mayStart,
          profile: this.host.profile,
          env: this.host.env,
          onReplaced: (pid) => this.host.addNotice(`The a1 server (pid ${pid}) was not responding; it was stopped and replaced.`),
        });
        if (server.started) this.autoStarts.push(now);
        // Disposed while it connected: the new connection is no one's.
        if (this.disposed) return server.close();
        this.server = server;
        await this.subscribe();
        this.reconnecting = false;
        this.serverStopped = false;
        const viewed = this.host.viewed();
        if (viewed) void this.server.request('view', { tabId: viewed }).catch(() => undefined);
        this.host.onResubscribed?.();
        this.host.onLinkState('connected');
        return;
      } catch {
        // Three automatic starts within a minute failed to keep a server up: stop trying on our
        // own and let the person decide (SPEC §10).
        this.serverStopped = !mayStart;
        this.host.onLinkState(this.serverStopped ? 'stopped' : 'reconnecting');
        // Quick at first (a replacement is usually a moment away), then no busier than 4 per second.
        await new Promise((r) => setTimeout(r, Math.min(RECONNECT_MAX_PAUSE_MS, RECONNECT_FIRST_PAUSE_MS * 2 ** attempt++)));
      }
    }
  }

  /** A person asked for a server: the next attempt may start one (a person's start is never
   * budgeted). */
  allowStart(): void {
    this.autoStarts = [];
    this.serverStopped = false;
    this.host.onLinkState('reconnecting');
  }

  dispose(): void {
    this.disposed = true;
    this.server.close();
  }
}

/** Two reports of the same thing that differ at most in the title (some agents animate it). */
export function sameBesidesTitle<T extends { title: string }>(a: T | null | undefined, b: T): boolean {
  return !!a && JSON.stringify({ ...a, title: '' }) === JSON.stringify({ ...b, title: '' });
}
