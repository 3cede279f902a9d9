// One open page of `a1 web` (issue 20), as a client of the server and of the viewed tab's holder:
// the same control plane (a passive subscription: read-only until the page claims a tab) and the
// same data plane and tickets as a terminal client. The page gets the tab list and the viewed
// tab's surface patches; a page that reads slowly is sent the whole surface once it catches up,
// never a backlog, and the holder's stream is always read on, so no tab waits for a browser.
import crypto from 'node:crypto';
import { ServerClient } from '../client/serverClient.js';
import { ControlLink, type LinkState } from '../client/controlLink.js';
import { HolderView } from '../client/holderView.js';
import { INPUT_REFUSALS } from '../client/inputRefusals.js';
import { attentionOf } from '../status/model.js';
import type { TabInfo } from '../protocol/messages.js';
import type { Paths } from '../paths.js';
import type { Logger } from '../log.js';
import type { SurfacePatch } from '../surface/types.js';
import { SurfaceModel } from './surfaceModel.js';
import { readPageMessage } from './inputCheck.js';
import { ProtocolError } from '../protocol/errors.js';
import { unhandled } from '../protocol/schema.js';
import { WS_CLOSE, type WebControl, type WebTab, type WebToPage } from './protocol.js';

/** A page whose socket holds more than this unsent is behind: it gets no more patches until it
 * drains, then the whole surface (the terminal client's bound, src/server/clientHub.ts). */
export const PAGE_QUEUE_BYTES = 1 << 20;
/** How often a behind page is looked at again. */
const DRAIN_CHECK_MS = 50;
/** The size a page announces: it never resizes a tab unless it controls it and asks. */
const ANNOUNCED_SIZE = { cols: 120, rows: 40 };
/** Between attempts to view a tab again after its holder connection closed. */
const REBIND_RETRY_MS = 300;
/** The largest message a page may send (a paste is bounded by the holder too). */
export const PAGE_MESSAGE_MAX_BYTES = 1 << 20;
/** Messages kept from a page while its link connects (a view and a few keys). */
const EARLY_MESSAGES_MAX = 64;

/** The page's notice for each state of the server link ('' clears it). A page cannot restart a
 * stopped server; the link reaches the next one a1 starts. */
const LINK_NOTICES: Readonly<Record<LinkState, string>> = {
  connected: '',
  reconnecting: 'reconnecting…',
  stopped: 'a1 server stopped · run a1 to start it again',
};

/** The page's own words for a refusal of input: read-only says what takes control here. */
const READ_ONLY_NOTICE = 'Read-only: take control to type.';

function refusalNotice(reason: string): string {
  if (reason === 'read-only') return READ_ONLY_NOTICE;
  const words = INPUT_REFUSALS.get(reason);
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}.` : `Input refused (${reason}).`;
}

/** What the page link needs of its WebSocket. */
export interface PageSocket {
  send(text: string): void;
  readonly bufferedAmount: number;
  close(code: number, reason: string): void;
}

export interface PageLinkDeps {
  paths: Paths;
  profile: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  socket: PageSocket;
}

export function webTab(tab: TabInfo): WebTab {
  const glyph = tab.glyph ?? 'none';
  return { id: tab.id, name: tab.name, glyph, attention: attentionOf(glyph), lifecycle: tab.lifecycle, kind: tab.agent?.kind ?? tab.kind ?? 'shell', title: tab.title };
}

export class PageLink {
  readonly clientId = `web-${crypto.randomBytes(6).toString('hex')}`;
  private control: ControlLink | null = null;
  private view: HolderView | null = null;
  private viewed: string | null = null;
  /** The viewed tab's name, to say which tab was closed. */
  private viewedName: string | null = null;
  private readonly model = new SurfaceModel();
  /** The page's socket backed up: patches wait in the model until it drains. */
  private behind = false;
  private drainTimer: NodeJS.Timeout | null = null;
  private tabsDue = false;
  private closed = false;
  /** The tab this page controlled when the server went away: taken back from nobody on the
   * replacement (a replacement hands a controller that has not viewed it yet to nobody). */
  private controlledAtLoss: string | null = null;
  private linkState: LinkState = 'connected';
  /** What the page sent before this link reached the server, replayed once it has. */
  private early: string[] | null = [];

  constructor(private readonly d: PageLinkDeps) {}

  async start(): Promise<void> {
    const server = await ServerClient.connect(this.d.paths, { start: true, profile: this.d.profile, env: this.d.env, onReplaced: () => undefined });
    if (this.closed) return server.close();
    if (!server.has('passive')) {
      server.close();
      this.send({ t: 'notice', text: 'This a1 server is an older version; run "a1 tabs host stop", then a1 web again.' });
      return this.close(WS_CLOSE.stopping, 'old server');
    }
    const self = this;
    this.control = new ControlLink(server, {
      paths: this.d.paths,
      profile: this.d.profile,
      env: this.d.env,
      clientId: this.clientId,
      passive: true,
      size: () => ANNOUNCED_SIZE,
      onTopology: () => self.scheduleTabs(),
      addNotice: (text) => self.send({ t: 'notice', text }),
      // "reconnecting…" while the server is replaced, cleared once it is back: said once per change.
      onLinkState: (state) => {
        if (state === self.linkState) return;
        self.linkState = state;
        self.send({ t: 'notice', text: LINK_NOTICES[state] });
      },
      viewed: () => self.viewed,
      onServerLost: () => {
        self.controlledAtLoss = self.view?.isController ? self.viewed : null;
      },
      onResubscribed: () => self.reclaim(),
      onHostStopping: () => self.close(WS_CLOSE.stopping, 'a1 stopped'),
    });
    await this.control.subscribe();
    this.send({ t: 'hello', clientId: this.clientId });
    this.sendTabs();
    const early = this.early ?? [];
    this.early = null;
    for (const text of early) this.onMessage(text);
  }

  /** One message from the page (already size-checked); one that is not a page message is refused,
   * logged by its code only (it may carry what the person typed). */
  onMessage(text: string): void {
    if (this.early) {
      if (this.early.length < EARLY_MESSAGES_MAX) this.early.push(text);
      return;
    }
    const m = readPageMessage(text);
    if (m instanceof ProtocolError) return this.d.log.warn('page-message-refused', { code: m.code });
    switch (m.t) {
      case 'view':
        return void this.viewTab(m.tabId);
      case 'claim':
        return void this.claim();
      case 'input':
        return this.view?.input(m.events, m.scripted === true);
      case 'resize':
        return this.resize(m.cols, m.rows);
      default:
        return unhandled(m);
    }
  }

  close(code?: number, reason?: string): void {
    if (this.closed) return;
    this.closed = true;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.view?.close();
    this.view = null;
    this.control?.dispose();
    if (code !== undefined) this.d.socket.close(code, reason ?? '');
  }

  private async viewTab(tabId: string): Promise<void> {
    if (!this.control || this.closed) return;
    const old = this.view;
    this.view = null;
    old?.close();
    this.model.clear();
    this.behind = false;
    this.viewed = tabId;
    this.viewedName = this.control.tabs.find((t) => t.id === tabId)?.name ?? null;
    this.send({ t: 'viewing', tabId });
    try {
      const grant = await this.control.request('view', { tabId, peek: true });
      if (this.viewed !== tabId || this.closed) return;
      const view: HolderView = await HolderView.open(
        { socketPath: grant.socketPath, ticket: grant.ticket, proofKey: grant.proofKey, tabId, clientId: this.clientId, ...ANNOUNCED_SIZE },
        {
          patch: (patch) => {
            if (this.view === view || this.view === null) this.onPatch(tabId, patch);
          },
          state: () => undefined,
          controller: (c) => {
            const control: WebControl = c.clientId === this.clientId ? 'you' : c.clientId ? 'other' : 'none';
            if (this.viewed === tabId) this.send({ t: 'control', tabId, control });
          },
          rejected: (reason) => this.send({ t: 'notice', text: refusalNotice(reason) }),
          closed: () => {
            if (this.view !== view) return;
            this.view = null;
            setTimeout(() => this.rebind(tabId), REBIND_RETRY_MS).unref();
          },
        },
      );
      if (this.viewed !== tabId || this.closed) return view.close();
      this.view = view;
    } catch (err) {
      if (this.viewed === tabId) this.send({ t: 'notice', text: `Cannot view this tab: ${(err as Error).message}` });
    }
  }

  /** The holder went away (restart, crash): view the tab again while it is there and viewed. */
  private rebind(tabId: string): void {
    if (this.closed || this.viewed !== tabId || this.view) return;
    if (!this.control?.tabs.some((t) => t.id === tabId)) return;
    void this.viewTab(tabId);
  }

  private async claim(): Promise<void> {
    const tabId = this.viewed;
    if (!tabId || !this.control) return;
    try {
      await this.control.request('claim', { tabId, force: true });
    } catch (err) {
      this.send({ t: 'notice', text: `Cannot take control: ${(err as Error).message}` });
    }
  }

  private reclaim(): void {
    const tabId = this.controlledAtLoss;
    this.controlledAtLoss = null;
    if (!tabId || tabId !== this.viewed || !this.control) return;
    // Not forced: a terminal client that took the tab meanwhile keeps it.
    void this.control.request('claim', { tabId, force: false }).catch(() => undefined);
  }

  /** Only a controlling page that asked: the holder admits a resize only from its controller. */
  private resize(cols: number, rows: number): void {
    if (!this.view) return;
    if (!this.view.isController) return this.send({ t: 'notice', text: READ_ONLY_NOTICE });
    this.view.resize(cols, rows);
  }

  private onPatch(tabId: string, patch: SurfacePatch): void {
    this.model.apply(patch);
    if (this.behind) return;
    if (this.d.socket.bufferedAmount > PAGE_QUEUE_BYTES) {
      this.behind = true;
      this.d.log.info('page-behind', {});
      return this.checkDrain(tabId);
    }
    this.send({ t: 'surface', tabId, patch });
  }

  private checkDrain(tabId: string): void {
    if (this.drainTimer || this.closed) return;
    this.drainTimer = setTimeout(() => {
      this.drainTimer = null;
      if (this.closed || this.viewed !== tabId) return;
      if (this.d.socket.bufferedAmount > PAGE_QUEUE_BYTES / 4) return this.checkDrain(tabId);
      this.behind = false;
      const full = this.model.full();
      if (full) this.send({ t: 'surface', tabId, patch: full });
    }, DRAIN_CHECK_MS);
  }

  /** The tab list goes out at most once per loop turn, however many changes arrived in it. */
  private scheduleTabs(): void {
    if (this.tabsDue) return;
    this.tabsDue = true;
    setImmediate(() => {
      this.tabsDue = false;
      this.sendTabs();
    });
  }

  private sendTabs(): void {
    if (!this.control || this.closed) return;
    const tabs = this.control.tabs.map(webTab);
    this.send({ t: 'tabs', tabs });
    // The viewed tab was closed: the page views nothing, and says so.
    if (this.viewed && !tabs.some((t) => t.id === this.viewed)) {
      const name = this.viewedName;
      this.viewed = null;
      this.view?.close();
      this.view = null;
      this.model.clear();
      this.send({ t: 'viewing', tabId: null });
      this.send({ t: 'notice', text: name ? `Tab ${name} was closed.` : 'The tab was closed.' });
    }
    this.viewedName = tabs.find((t) => t.id === this.viewed)?.name ?? this.viewedName;
  }

  private send(m: WebToPage): void {
    if (this.closed) return;
    try {
      this.d.socket.send(JSON.stringify(m));
    } catch {
      // The socket closed; its close handler ends this link.
    }
  }
}
