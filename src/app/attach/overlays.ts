// a1's overlays on this client (SPEC §8): the command prompt, the tabs picker, a confirmation,
// the key list, a chip's menu, and the rename editor on a chip. Their states are pure (in
// ../overlays); this carries out what a key in them asks for.
import type { PastSession } from '../../protocol/requests.js';
import { ServerError, unsupported } from '../../client/serverClient.js';
import type { InputEvent } from '../../input/events.js';
import { glyphText } from '../../status/glyphs.js';
import { glyphFor } from '../ui/chip.js';
import { hotkeysPageRows, type Overlay } from '../ui/overlayLayout.js';
import { editPrompt } from '../overlays/prompt.js';
import { movePicker, openPicker, setPickerTabs, type PickerTab } from '../overlays/picker.js';
import { confirmKey } from '../overlays/confirm.js';
import { scrollHotkeys } from '../overlays/hotkeys.js';
import { moveMenu } from '../overlays/menu.js';
import { editRename, startRename, type RenameState } from '../overlays/names.js';
import type { Command } from '../overlays/commands.js';
import type { ControlLink } from '../../client/controlLink.js';
import { Emitter } from '../../emitter.js';
import type { ActionQueue } from './actionQueue.js';
import type { ViewLink } from './viewLink.js';

/** Picker rows for past sessions carry this before the session id, so they never clash with tab ids. */
const SESSION_ROW_PREFIX = 'session:';

export interface OverlaysDeps {
  readonly control: ControlLink;
  readonly viewLink: Pick<ViewLink, 'viewed' | 'viewTab' | 'switchTo'>;
  /** Where reopening a past session waits for the actions queued before it. */
  readonly queue: ActionQueue;
  /** The arguments a new tab is created with (ClientOps.createArgs). */
  createArgs(): object;
  addNotice(text: string): void;
  surfaceSize(): { cols: number; rows: number };
  renderUi(): void;
}

/** What a key in an overlay asks the client's commands for (attach/actions.ts carries it out). */
export type OverlayCommand = { kind: 'run'; command: Command } | { kind: 'quitAll' } | { kind: 'closeTab'; tabId: string };

export class Overlays {
  overlay: Overlay | null = null;
  rename: RenameState | null = null;
  /** The tab a chip menu (right click) acts on; null for the overflow menu, which lists tabs. */
  menuTab: string | null = null;
  private pastSessions: PastSession[] = [];
  private readonly commands = new Emitter<OverlayCommand>();
  /** A command was chosen: typed at the prompt, confirmed, or picked from a chip's menu. */
  readonly onCommand = this.commands.event;

  constructor(private readonly host: OverlaysDeps) {}

  /** An overlay or the rename editor has the keys. */
  get isOpen(): boolean {
    return this.overlay !== null || this.rename !== null;
  }

  open(overlay: Overlay | null): void {
    this.overlay = overlay;
    this.host.renderUi();
  }

  /** A press outside them closes the overlay and the editor. */
  closeAll(): void {
    this.rename = null;
    this.open(null);
  }

  /** An open picker follows the tabs: one came or went, or a status or title changed. */
  followTabs(): void {
    if (this.overlay?.kind === 'picker') this.overlay = { kind: 'picker', state: setPickerTabs(this.overlay.state, this.pickerTabs(), this.host.viewLink.viewed) };
  }

  onKey(ev: InputEvent): void {
    const { host } = this;
    if (this.rename) {
      const r = editRename(this.rename, ev);
      this.rename = r.action.kind === 'none' ? r.state : null;
      if (r.action.kind === 'commit') {
        const { tabId, name } = r.action;
        void host.control
          .request('rename', { tabId, name, expectedRev: host.control.rev })
          .catch((err) => host.addNotice(err instanceof ServerError ? err.message : 'The tab was not renamed.'));
      }
      host.renderUi();
      return;
    }
    const overlay = this.overlay;
    if (!overlay) return;
    switch (overlay.kind) {
      case 'prompt': {
        const r = editPrompt(overlay.state, ev);
        if (r.action.kind === 'none') return this.open({ kind: 'prompt', state: r.state });
        this.open(null);
        if (r.action.kind === 'run') this.commands.fire({ kind: 'run', command: r.action.command });
        return;
      }
      case 'picker': {
        const r = movePicker(overlay.state, ev);
        if (r.action.kind === 'none') return this.open({ kind: 'picker', state: r.state });
        this.open(null);
        if (r.action.kind === 'view') {
          const session = r.action.tabId.startsWith(SESSION_ROW_PREFIX) ? r.action.tabId.slice(SESSION_ROW_PREFIX.length) : null;
          if (session === null) host.viewLink.switchTo(r.action.tabId);
          else host.queue.chain(() => this.reopenSession(session));
        }
        return;
      }
      case 'confirm': {
        const answer = confirmKey(ev);
        if (answer === 'none') return;
        this.open(null);
        if (answer === 'cancel') return;
        const state = overlay.state;
        if (state.kind === 'closeTab') void host.control.request('close', { tabId: state.tabId }).catch(() => host.addNotice('The tab could not be closed.'));
        else this.commands.fire({ kind: 'quitAll' });
        return;
      }
      case 'hotkeys': {
        const { cols, rows } = host.surfaceSize();
        const r = scrollHotkeys(overlay.state, ev, hotkeysPageRows(overlay.state, cols, rows));
        return this.open(r.action === 'close' ? null : { kind: 'hotkeys', state: r.state });
      }
      case 'menu': {
        const r = moveMenu(overlay.state, ev);
        if (r.action.kind === 'none') return this.open({ ...overlay, state: r.state });
        this.open(null);
        if (r.action.kind === 'select') this.onMenuSelect(r.action.id);
        return;
      }
    }
  }

  private onMenuSelect(id: string): void {
    const tabId = this.menuTab;
    this.menuTab = null;
    if (tabId === null) return this.host.viewLink.switchTo(id); // the overflow menu lists tabs by id
    if (id === 'rename') this.startRenaming(tabId);
    else if (id === 'close') this.commands.fire({ kind: 'closeTab', tabId });
  }

  startRenaming(tabId: string | null): void {
    const tab = this.host.control.tabs.find((t) => t.id === tabId);
    if (!tab) return;
    // No editor for a name the server cannot take.
    if (!this.host.control.serves('rename')) return this.host.addNotice(unsupported('rename').message);
    this.rename = startRename(tab.id, tab.name);
    this.host.renderUi();
  }

  private pickerTabs(): PickerTab[] {
    const tabs = this.host.control.tabs;
    const live = tabs.map((t) => ({ id: t.id, name: t.name, glyph: glyphText(glyphFor(t), 0), status: t.lifecycle, cwd: t.cwd, title: printableTitle(t.title) }));
    // Sessions no live tab holds come after the tabs: Enter reopens one on purpose (SPEC §9).
    const held = new Set(tabs.map((t) => t.sessionId).filter(Boolean));
    const past = this.pastSessions
      .filter((s) => !held.has(s.sessionId))
      .map((s) => ({ id: SESSION_ROW_PREFIX + s.sessionId, name: s.name, glyph: '', status: s.state, cwd: s.cwd }));
    return [...live, ...past];
  }

  async openTabsPicker(): Promise<void> {
    try {
      this.pastSessions = (await this.host.control.request('sessions', {})).sessions;
    } catch {
      // The picker still lists the tabs.
    }
    this.open({ kind: 'picker', state: openPicker(this.pickerTabs(), this.host.viewLink.viewed) });
  }

  private async reopenSession(sessionId: string): Promise<void> {
    try {
      const { tabId } = await this.host.control.request('openSession', { ...this.host.createArgs(), sessionId, cwd: null });
      await this.host.viewLink.viewTab(tabId);
    } catch (err) {
      this.host.addNotice(err instanceof ServerError ? err.message : 'That session could not be opened.');
    }
  }
}

/** A child's title as the picker may draw it: control characters and bidi overrides (which could
 * move the outer terminal's cursor or start a sequence) are dropped. */
function printableTitle(title: string): string {
  return title.replace(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu, '');
}
