// The client's link to the viewed tab's holder (SPEC §7, §8): opening the view the server
// grants, viewing again when the holder goes away, and the keys typed meanwhile, kept in order.
import { ServerError } from '../../client/serverClient.js';
import type { HolderState } from '../../protocol/messages.js';
import type { Ticket } from '../../security.js';
import type { InputEvent } from '../../input/events.js';
import { HolderView } from '../../client/holderView.js';
import { INPUT_REFUSALS, NOT_ACCEPTING_NOTICE } from '../../client/inputRefusals.js';
import type { Disposable } from '../../disposable.js';
import { Emitter } from '../../emitter.js';
import type { ControlLink } from '../../client/controlLink.js';
import { sameBesidesTitle } from '../../client/controlLink.js';
import type { Painter } from './painter.js';

/** Keys typed while a tab's holder is (re)connecting are kept up to this size (SPEC §7: keys
 * typed while a tab starts are queued in order up to a bound). */
const PENDING_INPUT_BYTES = 64 * 1024;
/** Between attempts to view a tab again after its holder connection closed. */
const REBIND_RETRY_MS = 300;
/** The restarted agent's predecessor died with a prompt no reply settled (SPEC §10). */
const PROMPT_OFFERED_NOTICE = 'the last prompt had no reply; it is back in the input, not sent';
const PROMPT_NOT_OFFERED_NOTICE = 'the last prompt had no reply and could not be put back in the input; nothing was sent';

/** The tab this client views: the view link sets it, and the server link reads it to view the
 * tab again on a replacement server (ControlLinkHost.viewed). */
export class ViewedTab {
  id: string | null = null;
}

export interface ViewLinkDeps {
  readonly clientId: string;
  readonly control: ControlLink;
  readonly painter: Pick<Painter, 'setSurface' | 'schedulePaint' | 'clearSurface'>;
  readonly viewedTab: ViewedTab;
  /** The surface's size on the outer screen. */
  surfaceSize(): { cols: number; rows: number };
  addNotice(text: string): void;
  /** Says the tab is read-only here, and which key takes control. */
  showReadOnly(): void;
  renderUi(): void;
  /** The viewed tab's child set the clipboard (OSC 52). */
  onClipboard(sequence: string): void;
}

export class ViewLink implements Disposable {
  view: HolderView | null = null;
  /** The viewed tab's state as its holder reports it; null until it does. */
  viewState: HolderState | null = null;
  /** Keys typed while the viewed tab's holder connects, sent in order once it is there. */
  private pendingInput: InputEvent[] = [];
  private pendingInputBytes = 0;
  /** A key woke the viewed sleeping tab and its view is being opened. */
  private waking = false;
  private disposed = false;
  private readonly leaving = new Emitter();
  /** The view is about to go (another tab, or this one again): copy mode on it ends. */
  readonly onLeavingView = this.leaving.event;
  private readonly surfaceWidth = new Emitter<number>();
  /** A surface frame arrived `cols` wide (the holder's controller may have resized it). */
  readonly onSurfaceWidth = this.surfaceWidth.event;
  private readonly viewClosed = new Emitter<HolderView>();
  /** A holder connection closed, whichever tab it showed. */
  readonly onViewClosed = this.viewClosed.event;

  constructor(private readonly host: ViewLinkDeps) {}

  private get tabs() {
    return this.host.control.tabs;
  }

  get viewed(): string | null {
    return this.host.viewedTab.id;
  }

  private set viewed(tabId: string | null) {
    this.host.viewedTab.id = tabId;
  }

  async viewTab(tabId: string): Promise<void> {
    // Keys typed from here on wait for the new view instead of going to the old one, where
    // this client may not even be the controller (they would be refused there). The old view's
    // state goes with it: keys for this tab are judged by this tab's state, once its holder sends it.
    const old = this.view;
    this.view = null;
    this.viewState = null;
    this.leaving.fire();
    old?.close();
    this.viewed = tabId;
    const grant = await this.host.control.request('view', { tabId });
    const { cols, rows } = this.host.surfaceSize();
    const view: HolderView = await HolderView.open(
      { socketPath: grant.socketPath, ticket: grant.ticket, proofKey: grant.proofKey, tabId, clientId: this.host.clientId, cols, rows },
      {
        patch: (patch) => {
          if (this.view !== view) return;
          this.host.painter.setSurface(patch);
          this.surfaceWidth.fire(patch.cols);
          // The holder already paces frames: one that arrives outside the paint interval is
          // painted now, not a loop turn later (it is usually a keystroke's echo).
          this.host.painter.schedulePaint(true);
        },
        state: (state) => {
          if (this.view !== view) return;
          const before = this.viewState;
          this.viewState = state;
          // Only the picker shows titles, and it reads them from the server's tab list.
          if (!sameBesidesTitle(before, state)) this.host.renderUi();
        },
        controller: () => {
          if (this.view !== view) return;
          // Resize is desired state: the controller's size is (re)applied on every grant.
          if (view.isController) {
            const size = this.host.surfaceSize();
            view.resize(size.cols, size.rows);
            this.flushPendingInput();
          } else if (view.controllerFree) {
            // Keys held until the holder said who controls: nobody does, so they claim the tab.
            this.flushPendingInput();
          }
        },
        rejected: (reason) => {
          if (reason === 'read-only') this.host.showReadOnly();
          else {
            const notice = INPUT_REFUSALS.get(reason);
            if (notice) this.host.addNotice(notice);
          }
        },
        promptOffer: (typed) => {
          if (this.view !== view) return;
          this.host.addNotice(typed ? PROMPT_OFFERED_NOTICE : PROMPT_NOT_OFFERED_NOTICE);
        },
        clipboard: (sequence) => {
          if (this.view === view) this.host.onClipboard(sequence);
        },
        closed: () => {
          this.viewClosed.fire(view);
          if (this.view !== view) return;
          this.view = null;
          this.host.renderUi();
          void this.rebindView(tabId);
        },
      },
    );
    // Another tab was chosen while this one connected: that view wins.
    if (this.viewed !== tabId || this.disposed) {
      view.close();
      return;
    }
    // A second viewTab of this same tab (a rebind racing a view) may have finished first.
    const previous = this.view as HolderView | null;
    this.view = view;
    previous?.close();
    if (view.isController) this.flushPendingInput();
    this.host.renderUi();
  }

  /** The holder went away (it died, or its tab is being restarted): view the tab again once
   * the server has a holder for it, unless the tab is gone or another tab is viewed. */
  async rebindView(tabId: string): Promise<void> {
    // A sleeping tab is not woken by its holder going away, only by a view or a key (SPEC §9).
    while (!this.disposed && this.viewed === tabId && !this.view && this.tabs.some((t) => t.id === tabId && t.lifecycle !== 'asleep')) {
      // A stopped tab left with no holder has nothing to view until r or f starts it again.
      const tab = this.tabs.find((t) => t.id === tabId);
      if (tab && tab.holderPid === null && (tab.lifecycle === 'failed' || tab.lifecycle === 'exited')) {
        await new Promise((r) => setTimeout(r, REBIND_RETRY_MS));
        continue;
      }
      try {
        await this.viewTab(tabId);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, REBIND_RETRY_MS));
      }
    }
  }

  /** Views `tabId` (null: stays), telling the user when it cannot be viewed. */
  switchTo(tabId: string | null): void {
    if (tabId === null || tabId === this.viewed) return;
    void this.viewTab(tabId).catch((err) => {
      this.host.addNotice(err instanceof ServerError ? err.message : 'That tab cannot be viewed.');
      void this.rebindView(tabId);
    });
  }

  /** The tab list changed: a viewed tab that is gone is not viewed any more. True when so. */
  dropGoneTab(): boolean {
    if (!this.viewed || this.tabs.some((t) => t.id === this.viewed)) return false;
    this.view?.close();
    this.view = null;
    this.viewed = null;
    // Its state goes with it: the surface must not keep the closed tab's exited notice and keys.
    this.viewState = null;
    this.host.painter.clearSurface();
    return true;
  }

  /** Views a sleeping tab again, which wakes it; keys meanwhile are consumed like the first. */
  private wake(tabId: string): void {
    if (this.waking) return;
    this.waking = true;
    void this.viewTab(tabId)
      .catch((err) => this.host.addNotice(err instanceof ServerError ? err.message : 'The tab could not be woken.'))
      .finally(() => (this.waking = false));
  }

  /** The outer terminal resized: the controller's size is the tab's. */
  resize(): void {
    const size = this.host.surfaceSize();
    if (this.view?.isController) this.view.resize(size.cols, size.rows);
  }

  /** Keys for the viewed tab's child. */
  sendInput(events: InputEvent[]): void {
    if (events.length === 0) return;
    const viewed = this.tabs.find((t) => t.id === this.viewed);
    // A key to a sleeping tab wakes it and is consumed: it was typed at no program, and a
    // resumed agent must not receive half a prompt (SPEC §10: never resent). Asked before the
    // view: the tab reads asleep as soon as the server says so, while the view of its ending
    // holder may not have closed yet, and a key sent there would be lost.
    if (viewed?.lifecycle === 'asleep') return this.wake(viewed.id);
    const view = this.view;
    if (!view) {
      // A stopped tab with no holder to show it: its r and f are still the client's.
      if (viewed && (viewed.lifecycle === 'failed' || viewed.lifecycle === 'exited')) return this.onStoppedTabKeys(viewed.id, viewed.lifecycle, events);
      // The viewed tab's holder is (re)connecting: keep keys in order until it is there.
      if (this.viewed !== null) this.queueInput(events);
      return;
    }
    // The holder's answer to attach (its state, then who controls the tab) is still on its way:
    // the keys wait for it in order (the controller callback sends them).
    if (!this.viewState || !view.controllerKnown) return this.queueInput(events);
    // A starting tab's holder keeps the keys in order until its child runs (SPEC §7).
    if (this.viewState.lifecycle !== 'running' && this.viewState.lifecycle !== 'starting') {
      this.onStoppedTabKeys(view.tabId, this.viewState.lifecycle, events);
      return;
    }
    if (view.isController) return view.input(events);
    if (view.controllerFree) {
      // A tab nobody controls goes to the first client that types into it. The keys wait until
      // the holder names this client controller (the controller callback sends them): the
      // server's reply comes on another socket and may arrive first, and input under the old
      // revision would be refused as read-only.
      this.queueInput(events);
      void this.host.control.request('claim', { tabId: view.tabId, force: false }).catch(() => undefined);
      return;
    }
    this.host.showReadOnly();
  }

  /** `r` and `f` on an exited or failed surface are the client's (SPEC §15): the child is not
   * running, so nothing else wants them. */
  private onStoppedTabKeys(tabId: string, lifecycle: string, events: InputEvent[]): void {
    if (lifecycle !== 'exited' && lifecycle !== 'failed') return;
    for (const ev of events) {
      if (ev.k !== 'text' || ev.mods?.alt || ev.mods?.ctrl) continue;
      const key = ev.s.toLowerCase();
      if (key !== 'r' && (key !== 'f' || lifecycle !== 'failed')) continue;
      void this.host.control
        .request('restart', { tabId, fresh: key === 'f' })
        .catch((err) => this.host.addNotice(err instanceof ServerError ? err.message : 'The tab could not be restarted.'));
      return;
    }
  }

  private queueInput(events: InputEvent[]): void {
    const size = JSON.stringify(events).length;
    if (this.pendingInputBytes + size > PENDING_INPUT_BYTES) {
      this.host.addNotice(NOT_ACCEPTING_NOTICE);
      return;
    }
    this.pendingInput.push(...events);
    this.pendingInputBytes += size;
  }

  private flushPendingInput(): void {
    if (this.pendingInput.length === 0 || !this.view) return;
    const events = this.pendingInput;
    this.pendingInput = [];
    this.pendingInputBytes = 0;
    this.sendInput(events);
  }

  dispose(): void {
    this.disposed = true;
    this.view?.close();
    this.leaving.dispose();
    this.surfaceWidth.dispose();
    this.viewClosed.dispose();
  }
}
