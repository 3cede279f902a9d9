// The attach client (SPEC §8): one writer owns stdout; surface patches from the viewed tab's
// holder and the Ink layer are composited into cells, and only changed cells are written.
import { ServerClient, ServerError, unsupported } from '../serverClient.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import type { TabInfo, HolderState } from '../protocol/messages.js';
import type { Ticket } from '../security.js';
import { newId } from '../security.js';
import { Compositor } from './compositor.js';
import { ansiToCells } from './ansiLayer.js';
import { CellGrid } from './cells.js';
import { DEFAULT_COLOR } from '../surface/types.js';
import { OuterTerminal, keyboardReply, writeSync } from './outerTerminal.js';
import { HolderView } from './holderView.js';
import { InputTokenizer } from '../input/tokenizer.js';
import { tokenToEvents } from '../input/parse.js';
import type { InputEvent } from '../input/events.js';
import { isChildOnly, isKeyInput, keyIdentity } from '../input/kittyKeys.js';
import { onCtrlC, INITIAL_DETACH_STATE, type DetachState } from '../keymap/detach.js';
import type { Keymap } from '../keymap/keys.js';
import { chordStep, chordTimeout, CHORD_TIMEOUT_MS, NO_CHORD, type ChordResult, type ChordState } from '../keymap/chords.js';
import type { ActionId } from '../keymap/actions.js';
import { loadKeymap } from './keybindings.js';
import { stepTab, jumpTab, moveIndex } from './navigation.js';
import { fitEnd } from './overlays/text.js';
import { layoutStrip, hitTest, dropIndexAt, type StripLayout, type StripTarget } from './strip/layout.js';
import { glyphFor } from './ui/chip.js';
import { glyphText } from '../status/glyphs.js';
import { overlaySize, hotkeysPageRows, type Overlay } from './ui/overlayLayout.js';
import { editPrompt, OPEN_PROMPT } from './overlays/prompt.js';
import { movePicker, openPicker, setPickerTabs, type PickerTab } from './overlays/picker.js';
import { confirmKey } from './overlays/confirm.js';
import { scrollHotkeys, openHotkeys, chordLabel } from './overlays/hotkeys.js';
import { moveMenu, chipMenu, tabsMenu } from './overlays/menu.js';
import { editRename, startRename, type RenameState } from './overlays/names.js';
import { cursorOffset } from './overlays/lineEditor.js';
import type { Command } from './overlays/commands.js';
import type { InkLayer } from './inkLayer.js';
import type { SurfacePatch } from '../surface/types.js';
import { atBottom, copyModeStep, startCopyMode, type CopyAction, type CopyModeState, type CopyStep } from './copyMode/state.js';
import { copyModeIndicator, copyModePatch } from './copyMode/view.js';
import { osc52 } from './copyMode/osc52.js';

/** Paints are coalesced within one event-loop turn, and at most one per this interval: the
 * holder already paces frames, so a short gap keeps a keystroke's echo off any timer. */
const PAINT_INTERVAL_MS = 4;
/** The strip appears even for a tab whose surface never arrives. */
const INK_LOAD_FALLBACK_MS = 300;
/** Keys typed while a tab's holder is (re)connecting are kept up to this size (SPEC §7: keys
 * typed while a tab starts are queued in order up to a bound). */
const PENDING_INPUT_BYTES = 64 * 1024;
/** Between attempts to view a tab again after its holder connection closed. */
const REBIND_RETRY_MS = 300;
/** A press held this long on a chip starts a drag even without moving (SPEC §8). */
const DRAG_HOLD_MS = 250;
/** Overlays open one row below the strip, so the chip they concern stays in sight. */
const OVERLAY_TOP_GAP = 1;
/** Rows the strip takes above the surface. */
const STRIP_ROWS = 1;
/** How long a transient notice stays up. */
const NOTICE_MS = 8_000;
/** The restarted agent's predecessor died with a prompt no reply settled (SPEC §10). */
const PROMPT_OFFERED_NOTICE = 'the last prompt had no reply; it is back in the input, not sent';
const PROMPT_NOT_OFFERED_NOTICE = 'the last prompt had no reply and could not be put back in the input; nothing was sent';
/** Server restarts a client makes on its own within a minute before it shows a stopped state. */
const AUTO_STARTS_PER_MINUTE = 3;
/** Pauses between reconnect attempts: 25 ms doubling up to 250 ms. */
const RECONNECT_FIRST_PAUSE_MS = 25;
const RECONNECT_MAX_PAUSE_MS = 250;
/** Picker rows for past sessions carry this before the session id, so they never clash with tab ids. */
const SESSION_ROW_PREFIX = 'session:';
/** Spinner frames advance this often while a chip spins: smooth enough, and cheap. */
const SPINNER_INTERVAL_MS = 125;
const SPINNING: ReadonlySet<string> = new Set(['working', 'starting']);
/** Lines one wheel notch scrolls, and arrow keys it sends on the alternate screen: what
 * common terminals do. */
const WHEEL_LINES = 3;

/** Copy mode on one view: its state arrives once the holder has said how long its history is. */
interface CopySession {
  view: HolderView;
  state: CopyModeState | null;
  /** Copy-mode keys and wheel notches that came while the state was on its way, in order. */
  early: InputEvent[];
}

/** A session no live tab holds, as the server lists it for the picker. */
interface PastSession {
  sessionId: string;
  name: string;
  cwd: string;
  /** closed, reboot, expired, or a record origin. */
  state: string;
}

export interface ClientOptions {
  paths: Paths;
  profile: string;
  config: Config;
  /** Why config.json was not used as written (the defaults stand in): shown once as a notice. */
  configProblem?: string | null;
  /** The user's environment, captured before a1 changed anything, for new tabs' children. */
  env: NodeJS.ProcessEnv;
  umask: number;
  /** Asks the server for this tab instead of the last viewed one (`a1 --session`). */
  openSession?: { sessionId: string; agent: string | null; cwd: string | null };
}

export async function runClient(opts: ClientOptions): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  if (!stdin.isTTY || !stdout.isTTY) {
    process.stderr.write('a1: attach needs a terminal (stdin and stdout must be a TTY).\n');
    return 1;
  }
  let server: ServerClient;
  try {
    server = await ServerClient.connect(opts.paths, { start: true, profile: opts.profile, env: opts.env });
  } catch (err) {
    process.stderr.write(`a1: ${(err as Error).message}\n`);
    return 1;
  }
  const client = new AttachClient(opts, server, stdin, stdout);
  return client.run();
}

class AttachClient {
  private readonly clientId = newId('cl');
  private readonly outer: OuterTerminal;
  private compositor: Compositor;
  private cols: number;
  private rows: number;
  private tabs: TabInfo[] = [];
  /** The topology revision this client last saw; mutations carry it (SPEC §6). */
  private rev = 0;
  private readonly keymap: Keymap;
  private strip: StripLayout | null = null;
  private overlay: Overlay | null = null;
  private actions: Promise<void> = Promise.resolve();
  private actionsPending = 0;
  /** A left press on a chip, which becomes a drag after DRAG_HOLD_MS or a move. */
  private press: { tabId: string; x: number; timer: NodeJS.Timeout } | null = null;
  private drag: { tabId: string; dropIndex: number } | null = null;
  /** The tab a chip menu (right click) acts on. */
  private menuTab: string | null = null;
  private rename: RenameState | null = null;
  private hovered: StripTarget | null = null;
  /** Keys typed while the viewed tab's holder connects, sent in order once it is there. */
  private pendingInput: InputEvent[] = [];
  private pendingInputBytes = 0;
  private viewed: string | null = null;
  private view: HolderView | null = null;
  private viewState: HolderState | null = null;
  private ink: InkLayer | null = null;
  private inkRequested = false;
  private notices: { text: string; until: number }[] = [];
  private persistentNotice: string | null = null;
  private readonly tokenizer: InputTokenizer;
  /** The outer terminal's answer to the keyboard query: unknown until its reply or DA1's. */
  private keyboard: 'asked' | 'kitty' | 'legacy' = 'asked';
  /** Keys whose press a1 took for itself: their release never reaches the tab either (a child
   * that asked for event types would see a release without its press). */
  private readonly takenKeys = new Set<string>();
  private escTimer: NodeJS.Timeout | null = null;
  /** A chord begun and waiting for its next key, and the timer that gives up on it. */
  private chord: ChordState = NO_CHORD;
  private chordTimer: NodeJS.Timeout | null = null;
  private detach: DetachState = INITIAL_DETACH_STATE;
  private paintTimer: NodeJS.Timeout | null = null;
  private paintPending = false;
  private lastPaint = 0;
  private done: ((code: number) => void) | null = null;
  private finished = false;
  private reconnecting = false;
  /** A key woke the viewed sleeping tab and its view is being opened. */
  private waking = false;
  /** Automatic server starts are exhausted: the client waits for `r` or `q`. */
  private serverStopped = false;
  private pastSessions: PastSession[] = [];
  /** Advances while a chip spins (working, starting); stopped when none does, to stay idle. */
  private spinnerFrame = 0;
  private spinnerTimer: NodeJS.Timeout | null = null;
  private autoStarts: number[] = [];
  private lastSurface: SurfacePatch | null = null;
  /** This client's copy mode (per client: the tab, the child and other clients never see it). */
  private copy: CopySession | null = null;
  /** A left press on the live surface of a tab that does not own the mouse: a drag from it
   * selects in copy mode. Surface coordinates. */
  private surfacePress: { x: number; y: number } | null = null;

  constructor(
    private readonly opts: ClientOptions,
    private server: ServerClient,
    private readonly stdin: NodeJS.ReadStream,
    private readonly stdout: NodeJS.WriteStream,
  ) {
    this.outer = new OuterTerminal(stdin, stdout);
    this.tokenizer = new InputTokenizer(opts.config.escapeTimeoutMs);
    this.cols = stdout.columns || 80;
    this.rows = stdout.rows || 24;
    this.compositor = new Compositor(this.cols, this.rows);
    const loaded = loadKeymap(opts.paths.keybindingsFile);
    this.keymap = loaded.keymap;
    if (loaded.problem) this.addNotice(loaded.problem);
    for (const conflict of loaded.conflicts) this.addNotice(conflict);
    if (opts.configProblem) this.addNotice(opts.configProblem);
  }

  async run(): Promise<number> {
    const exitCode = new Promise<number>((resolve) => (this.done = resolve));
    this.installSafety();
    try {
      await this.subscribe();
      const { tabId } = this.opts.openSession
        ? await this.server.request<{ tabId: string }>('openSession', { ...this.createArgs(), ...this.opts.openSession })
        : await this.server.request<{ tabId: string }>('ensureTab', this.createArgs());
      this.outer.enter();
      this.stdin.on('data', this.onStdin);
      this.stdout.on('resize', this.onResize);
      await this.viewTab(tabId).catch((err: unknown) => {
        // A tab with no process to show (failed, its start refused) must not stand between the
        // user and the other tabs: the strip stays, r/f/Alt+W and switching work, and the view
        // comes once the tab runs again.
        if (!(err instanceof ServerError) || err.code !== 'holder-unavailable') throw err;
        this.addNotice(`${err.message} r retries, f starts fresh, Alt+W closes it.`);
        void this.rebindView(tabId);
      });
      // Normally the first surface paint loads Ink; this covers a tab that sends no surface.
      setTimeout(() => this.requestInk(), INK_LOAD_FALLBACK_MS).unref();
    } catch (err) {
      this.finish(1, `a1: ${(err as Error).message}`);
    }
    return exitCode;
  }

  private createArgs(): object {
    return { cwd: process.cwd(), env: this.opts.env, umask: this.opts.umask, cols: this.cols, rows: this.surfaceRows() };
  }

  private surfaceRows(): number {
    return Math.max(1, this.rows - STRIP_ROWS);
  }

  // ---- control plane ----

  private subscribe(): Promise<void> {
    const server = this.server;
    return new Promise((resolve, reject) => {
      server.conn.onMessage((msg) => {
        const m = msg as Record<string, unknown> & { t: string };
        switch (m.t) {
          case 'snapshot':
            this.rev = m.rev as number;
            this.tabs = m.tabs as TabInfo[];
            for (const n of (m.notices as string[]) ?? []) this.addNotice(n);
            this.onTopology();
            resolve();
            break;
          case 'tab': {
            this.rev = m.rev as number;
            const tab = m.tab as TabInfo;
            this.tabs = [...this.tabs.filter((t) => t.id !== tab.id), tab].sort((a, b) => a.ord - b.ord);
            this.onTopology();
            break;
          }
          case 'tabStatus': {
            const tab = m.tab as TabInfo;
            const before = this.tabs.find((t) => t.id === tab.id);
            this.tabs = this.tabs.map((t) => (t.id === tab.id ? tab : t));
            // An animated title changes nothing on the strip: only an open picker redraws for it.
            if (sameBesidesTitle(before, tab) && this.overlay?.kind !== 'picker') break;
            this.onTopology();
            break;
          }
          case 'tabs':
            this.rev = m.rev as number;
            this.tabs = m.tabs as TabInfo[];
            this.onTopology();
            break;
          case 'notice':
            // What the server must say to everyone (a close that could not end a process).
            this.addNotice(m.text as string);
            break;
          case 'hostStopping':
            // Every tab is being stopped on purpose: leave, and start no replacement server.
            this.finish(0, '\x1b[2ma1 was stopped (a1 tabs host stop) · run a1 to start it again\x1b[0m');
            break;
          case 'tabRemoved':
            this.rev = m.rev as number;
            this.tabs = this.tabs.filter((t) => t.id !== m.id);
            this.onTopology();
            break;
        }
      });
      server.conn.onClose(() => {
        reject(new ServerError('disconnected', 'The connection to the a1 server was lost.'));
        if (server === this.server) void this.reconnect();
      });
      server.conn.send({ t: 'subscribe', clientId: this.clientId, cols: this.cols, rows: this.rows });
    });
  }

  /** The server died: keep the surface live over the data plane and quietly move to a
   * replacement (SPEC §10). */
  private async reconnect(): Promise<void> {
    if (this.reconnecting || this.finished) return;
    this.reconnecting = true;
    this.persistentNotice = 'reconnecting…';
    this.renderUi();
    let attempt = 0;
    while (!this.finished) {
      const now = Date.now();
      this.autoStarts = this.autoStarts.filter((t) => now - t < 60_000);
      const mayStart = this.autoStarts.length < AUTO_STARTS_PER_MINUTE;
      try {
        const server = await ServerClient.connect(this.opts.paths, {
          start: mayStart,
          profile: this.opts.profile,
          env: this.opts.env,
          onReplaced: (pid) => this.addNotice(`The a1 server (pid ${pid}) was not responding; it was stopped and replaced.`),
        });
        if (server.started) this.autoStarts.push(now);
        this.server = server;
        await this.subscribe();
        this.reconnecting = false;
        this.serverStopped = false;
        this.persistentNotice = null;
        if (this.viewed) void this.server.request('view', { tabId: this.viewed }).catch(() => undefined);
        this.renderUi();
        return;
      } catch (err) {
        // Three automatic starts within a minute failed to keep a server up: stop trying on our
        // own and let the person decide (SPEC §10).
        this.serverStopped = !mayStart;
        if (this.serverStopped) this.persistentNotice = 'a1 server stopped · [r] restart it  [q] quit';
        this.renderUi();
        void err;
        // Quick at first (a replacement is usually a moment away), then no busier than 4 per second.
        await new Promise((r) => setTimeout(r, Math.min(RECONNECT_MAX_PAUSE_MS, RECONNECT_FIRST_PAUSE_MS * 2 ** attempt++)));
      }
    }
  }

  private onTopology(): void {
    if (this.viewed && !this.tabs.some((t) => t.id === this.viewed)) {
      this.view?.close();
      this.view = null;
      this.viewed = null;
      this.lastSurface = null;
      this.compositor.clearSurface();
      const next = this.tabs[0];
      if (next) void this.viewTab(next.id);
    }
    // An open picker follows the tabs: one came or went, or a status or title changed.
    if (this.overlay?.kind === 'picker') this.overlay = { kind: 'picker', state: setPickerTabs(this.overlay.state, this.pickerTabs(), this.viewed) };
    this.renderUi();
  }

  // ---- data plane ----

  private async viewTab(tabId: string): Promise<void> {
    // Keys typed from here on wait for the new view instead of going to the old one, where
    // this client may not even be the controller (they would be refused there). The old view's
    // state goes with it: keys for this tab are judged by this tab's state, once its holder sends it.
    const old = this.view;
    this.view = null;
    this.viewState = null;
    this.leaveCopyMode();
    old?.close();
    this.viewed = tabId;
    const grant = await this.server.request<{ ticket: Ticket; proofKey: string; socketPath: string }>('view', { tabId });
    const view = await HolderView.open(
      { socketPath: grant.socketPath, ticket: grant.ticket, proofKey: grant.proofKey, tabId, clientId: this.clientId, cols: this.cols, rows: this.surfaceRows() },
      {
        patch: (patch) => {
          if (this.view !== view) return;
          this.lastSurface = patch;
          this.compositor.setSurface(patch, STRIP_ROWS);
          // The holder's width changed (its controller resized): copy mode's lines reflowed.
          const copying = this.copy?.state;
          if (copying && patch.cols !== copying.cols) this.copyStep({ kind: 'resize', cols: patch.cols, height: this.surfaceRows() });
          // The holder already paces frames: one that arrives outside the paint interval is
          // painted now, not a loop turn later (it is usually a keystroke's echo).
          this.schedulePaint(true);
        },
        state: (state) => {
          if (this.view !== view) return;
          const before = this.viewState;
          this.viewState = state;
          // Only the picker shows titles, and it reads them from the server's tab list.
          if (!sameBesidesTitle(before, state)) this.renderUi();
        },
        controller: () => {
          if (this.view !== view) return;
          // Resize is desired state: the controller's size is (re)applied on every grant.
          if (view.isController) {
            view.resize(this.cols, this.surfaceRows());
            this.flushPendingInput();
          } else if (view.controllerFree) {
            // Keys held until the holder said who controls: nobody does, so they claim the tab.
            this.flushPendingInput();
          }
        },
        rejected: (reason) => {
          if (reason === 'queue-full') this.addNotice('not accepting input');
          else if (reason === 'delivery-uncertain') this.addNotice('delivery uncertain: the program ended before it read all of your input; nothing was sent again');
          else if (reason === 'read-only') this.showReadOnly();
          else if (reason === 'not-started') this.addNotice('not delivered: the program did not start');
          else if (reason === 'not-running') this.addNotice('not delivered: the program is not running');
        },
        promptOffer: (typed) => {
          if (this.view !== view) return;
          this.addNotice(typed ? PROMPT_OFFERED_NOTICE : PROMPT_NOT_OFFERED_NOTICE);
        },
        clipboard: (sequence) => {
          // The viewed tab's child set the clipboard (OSC 52); the user's config decides.
          if (this.view === view && this.opts.config.allowClipboardWrite) this.stdout.write(sequence);
        },
        closed: () => {
          if (this.copy?.view === view) this.leaveCopyMode();
          if (this.view !== view) return;
          this.view = null;
          this.renderUi();
          void this.rebindView(tabId);
        },
      },
    );
    // Another tab was chosen while this one connected: that view wins.
    if (this.viewed !== tabId || this.finished) {
      view.close();
      return;
    }
    // A second viewTab of this same tab (a rebind racing a view) may have finished first.
    const previous = this.view as HolderView | null;
    this.view = view;
    previous?.close();
    if (view.isController) this.flushPendingInput();
    this.renderUi();
  }

  /** The holder went away (it died, or its tab is being restarted): view the tab again once
   * the server has a holder for it, unless the tab is gone or another tab is viewed. */
  private async rebindView(tabId: string): Promise<void> {
    // A sleeping tab is not woken by its holder going away, only by a view or a key (SPEC §9).
    while (!this.finished && this.viewed === tabId && !this.view && this.tabs.some((t) => t.id === tabId && t.lifecycle !== 'suspended')) {
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

  // ---- input ----

  private readonly onStdin = (chunk: Buffer): void => {
    const tokens = this.tokenizer.push(chunk, Date.now());
    this.handleTokens(tokens);
    this.armEscTimer();
  };

  /** A lone ESC resolves once the tokenizer's timeout has passed. A timer may fire a moment
   * before Date.now() says the time is up (their clocks differ), and then flush() resolves
   * nothing yet: the timer is armed again rather than leaving the ESC pending until a key. */
  private armEscTimer(): void {
    if (this.escTimer) clearTimeout(this.escTimer);
    this.escTimer = null;
    const wait = this.tokenizer.pendingTimeoutMs;
    if (wait === null) return;
    this.escTimer = setTimeout(() => {
      this.escTimer = null;
      this.handleTokens(this.tokenizer.flush(Date.now()));
      this.armEscTimer();
    }, Math.max(1, wait));
  }

  /** A begun chord that gets no next key in time reaches the tab as typed. */
  private armChordTimer(): void {
    if (this.chordTimer) clearTimeout(this.chordTimer);
    this.chordTimer = null;
    if (this.chord.pending.length === 0) return;
    this.chordTimer = setTimeout(() => {
      this.chordTimer = null;
      const { state, flushed } = chordTimeout(this.chord);
      this.chord = state;
      if (this.copy) for (const ev of flushed) this.onCopyModeEvent(ev);
      else this.sendInput([...flushed]);
    }, CHORD_TIMEOUT_MS);
  }

  private handleTokens(tokens: ReturnType<InputTokenizer['push']>): void {
    void this.handleEvents(tokens.flatMap((token) => (this.readKeyboardReply(token.raw) ? [] : tokenToEvents(token))));
  }

  /** Remembers a key press a1 takes (an overlay's, copy mode's, a binding's or a begun chord's;
   * Ctrl+C, counting toward a detach, still goes to the tab), so its release stays a1's too. */
  private noteTakenKey(ev: InputEvent, result: ChordResult | null): void {
    if (this.keyboard !== 'kitty' || !isKeyInput(ev)) return;
    const taken =
      this.overlay !== null || this.rename !== null || this.copy !== null || result?.kind === 'pending' || (result?.kind === 'action' && result.action !== 'detachTwice');
    if (taken) this.takenKeys.add(keyIdentity(ev));
  }

  /** The outer terminal's replies to the keyboard query are a1's, never a tab's: a kitty
   * protocol answer turns a1's keyboard flags on. */
  private readKeyboardReply(raw: string): boolean {
    const reply = keyboardReply(raw);
    if (!reply) return false;
    if (this.keyboard === 'asked') {
      this.keyboard = reply.k === 'kitty' ? 'kitty' : 'legacy';
      if (reply.k === 'kitty') this.outer.enhanceKeyboard();
    }
    return true;
  }

  /** Input after a shortcut waits for the shortcut's action, so keys typed (or pasted) right
   * after the prompt key or F2 reach the prompt or editor it opens, never the tab. */
  private handleEvents(events: InputEvent[], queued = false): void | Promise<void> {
    if (events.length === 0) return;
    if (this.serverStopped) return this.onStoppedServerKeys(events);
    if (!queued && this.actionsPending > 0) {
      this.chain(() => this.handleEvents(events, true));
      return;
    }
    const forward: InputEvent[] = [];
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      {
        // The release of a key a1 took. (A held key's repeats count as presses, as with a
        // legacy terminal's autorepeat.)
        if (isKeyInput(ev) && ev.type === 'release' && this.takenKeys.delete(keyIdentity(ev))) continue;
        if (isChildOnly(ev)) {
          // A release (or a modifier alone) is never a1's key; the tab gets it when nothing of
          // a1's is open, and the holder sends it only to a child that asked for it.
          if (!this.overlay && !this.rename && !this.copy) forward.push(ev);
          continue;
        }
        if ((this.overlay || this.rename) && ev.k !== 'mouse') {
          this.noteTakenKey(ev, null);
          this.sendInput(forward.splice(0));
          this.onOverlayKey(ev);
          continue;
        }
        const chord = chordStep(this.chord, ev, this.keymap);
        this.chord = chord.state;
        this.noteTakenKey(ev, chord.result);
        this.armChordTimer();
        for (const waited of chord.flushed) {
          if (this.copy) this.onCopyModeEvent(waited);
          else forward.push(waited);
        }
        if (chord.result.kind === 'pending') continue;
        const action = chord.result.kind === 'action' ? chord.result.action : null;
        if (action === 'sendPrefix' && chord.result.kind === 'action') {
          // The prefix pressed twice: the tab gets one, as tmux's send-prefix does.
          if (this.copy) this.onCopyModeEvent(chord.result.events[0]);
          else forward.push(chord.result.events[0]);
          continue;
        }
        if (this.copy && !(ev.k === 'mouse' && (ev.y < STRIP_ROWS || this.press))) {
          // Copy mode has the keys: nothing reaches the tab. copyMode's key leaves it, as do
          // Ctrl+C (still counting toward a detach) and any other shortcut, which then runs.
          if (action === 'copyMode') {
            this.leaveCopyMode();
            continue;
          }
          if (action === 'detachTwice') {
            const step = onCtrlC(this.detach, Date.now(), this.opts.config.detachIntervalMs);
            this.detach = step.state;
            this.leaveCopyMode();
            if (step.action === 'detach') return this.detachClient();
            continue;
          }
          if (!action) {
            this.onCopyModeEvent(ev);
            continue;
          }
          this.leaveCopyMode();
        }
        if (action === 'detach') {
          // Leaves at once, ahead of any queued action: the key itself never reaches the tab.
          this.sendInput(forward.splice(0));
          this.detachClient();
          return;
        }
        if (action === 'detachTwice') {
          const step = onCtrlC(this.detach, Date.now(), this.opts.config.detachIntervalMs);
          this.detach = step.state;
          if (step.action === 'detach') {
            this.sendInput(forward.splice(0));
            this.detachClient();
            return;
          }
          forward.push(ev);
          continue;
        }
        if (action) {
          // A matched shortcut is consumed; what came before it goes first.
          this.sendInput(forward.splice(0));
          const rest = events.slice(i + 1);
          // Already inside the queue: finish this action and the rest of the batch in place,
          // ahead of anything typed later.
          if (queued) return this.runAction(action).then(() => this.handleEvents(rest, true));
          this.enqueueAction(action);
          if (rest.length > 0) this.chain(() => this.handleEvents(rest, true));
          return;
        }
        if (ev.k === 'mouse' && (ev.y < STRIP_ROWS || this.press)) {
          this.onStripMouse(ev);
          continue;
        }
        if (ev.k === 'mouse') {
          if (this.hovered) this.setHovered(null);
          if (ev.action === 'press' && (this.overlay || this.rename)) {
            this.rename = null;
            this.openOverlay(null);
            continue;
          }
          const modes = this.lastSurface?.modes;
          if (!modes) continue;
          const wheel = ev.action === 'press' && (ev.button === 'wheelUp' || ev.button === 'wheelDown');
          if (modes.mouse === 'none' && wheel && modes.altScreen) {
            // As common terminals do: a full-screen program without the mouse scrolls by keys.
            const key = ev.button === 'wheelUp' ? 'up' : 'down';
            for (let n = 0; n < WHEEL_LINES; n++) forward.push({ k: 'key', key });
            continue;
          }
          if (modes.mouse === 'none' && !modes.altScreen && ev.button === 'left' && ev.action === 'press') {
            this.surfacePress = { x: ev.x, y: ev.y - STRIP_ROWS };
            continue;
          }
          if (modes.mouse === 'none' && ev.action === 'move' && ev.button === 'left' && this.surfacePress) {
            // A drag selects: copy mode opens with the cursor at the press, then takes this
            // motion and what follows as its own.
            const press = this.surfacePress;
            this.surfacePress = null;
            this.sendInput(forward.splice(0));
            const rest = events.slice(i);
            if (queued) return this.enterCopyMode(0, press).then(() => this.handleEvents(rest, true));
            this.chain(() => this.enterCopyMode(0, press));
            this.chain(() => this.handleEvents(rest, true));
            return;
          }
          if (ev.action === 'release') this.surfacePress = null;
          if (modes.mouse === 'none' && wheel && ev.button === 'wheelUp') {
            // The wheel scrolls this client's view of the history: copy mode, scrolled back.
            this.sendInput(forward.splice(0));
            const rest = events.slice(i + 1);
            if (queued) return this.enterCopyMode(-WHEEL_LINES).then(() => this.handleEvents(rest, true));
            this.chain(() => this.enterCopyMode(-WHEEL_LINES));
            if (rest.length > 0) this.chain(() => this.handleEvents(rest, true));
            return;
          }
          if (modes.mouse === 'none') continue;
          forward.push({ ...ev, y: ev.y - STRIP_ROWS });
          continue;
        }
        forward.push(ev);
      }
    }
    this.sendInput(forward);
  }

  /** Mouse on the strip (SPEC §8): hover highlights, a left click views a chip, `+` creates. */
  private onStripMouse(ev: Extract<InputEvent, { k: 'mouse' }>): void {
    const target = this.strip ? hitTest(this.strip, ev.x) : null;
    if (ev.action === 'move') {
      if (this.press && ev.button === 'left') {
        if (ev.x !== this.press.x) this.startDrag();
        if (this.drag && this.strip) this.setDrop(dropIndexAt(this.strip, ev.x));
        return;
      }
      this.setHovered(target);
      return;
    }
    if (ev.action === 'release') {
      this.endDrag(ev.x);
      return;
    }
    if (ev.action !== 'press') return;
    // A click elsewhere cancels an open editor or overlay.
    if (this.rename && !(target?.kind === 'chip' && target.tabId === this.rename.tabId)) this.rename = null;
    if (this.overlay) this.openOverlay(null);
    if (!target) return this.renderUi();
    if (ev.button === 'right' && target.kind === 'chip') {
      this.menuTab = target.tabId;
      return this.openOverlay({ kind: 'menu', state: chipMenu() });
    }
    if (ev.button !== 'left') return;
    if (target.kind === 'chip') {
      this.switchTo(target.tabId);
      // Held for a moment or moved, the press becomes a drag that reorders (SPEC §8).
      const tabId = target.tabId;
      this.press = { tabId, x: ev.x, timer: setTimeout(() => this.startDrag(), DRAG_HOLD_MS) };
    }
    else if (target.kind === 'plus') this.enqueueAction('newTab');
    else if (target.kind === 'overflow') {
      this.menuTab = null;
      this.openOverlay({ kind: 'menu', state: tabsMenu(this.tabs.map((t) => ({ id: t.id, name: t.name })), this.viewed) });
    }
  }

  private startDrag(): void {
    if (!this.press || this.drag) return;
    const at = this.order().indexOf(this.press.tabId);
    this.drag = { tabId: this.press.tabId, dropIndex: at };
    this.renderUi();
  }

  private setDrop(dropIndex: number): void {
    if (!this.drag || this.drag.dropIndex === dropIndex) return;
    this.drag = { ...this.drag, dropIndex };
    this.renderUi();
  }

  private endDrag(x: number): void {
    const press = this.press;
    const drag = this.drag;
    if (press) clearTimeout(press.timer);
    this.press = null;
    this.drag = null;
    if (!drag || !this.strip) return;
    const insertion = dropIndexAt(this.strip, x);
    const from = this.order().indexOf(drag.tabId);
    const to = insertion > from ? insertion - 1 : insertion;
    this.renderUi();
    if (from < 0 || to === from) return;
    void this.server
      .request('reorder', { tabId: drag.tabId, toIndex: to, expectedRev: this.rev })
      .catch((err) => this.addNotice(err instanceof ServerError ? err.message : 'The tab was not moved.'));
  }

  private setHovered(target: StripTarget | null): void {
    const same = JSON.stringify(target) === JSON.stringify(this.hovered);
    if (same) return;
    this.hovered = target;
    this.renderUi();
  }

  private order(): string[] {
    return this.tabs.map((t) => t.id);
  }

  /** Actions run one at a time, in the order typed: each sees the revision and order the one
   * before it left (the server's topology change precedes its reply on the same socket). */
  private enqueueAction(action: ActionId): void {
    this.chain(() => this.runAction(action));
  }

  private chain(step: () => void | Promise<void>): void {
    this.actionsPending++;
    this.actions = this.actions.then(async () => {
      this.actionsPending--;
      await step();
    });
  }

  private async runAction(action: ActionId): Promise<void> {
    try {
      switch (action) {
        case 'newTab':
          return await this.newTab();
        case 'nextTab':
        case 'prevTab':
          return this.switchTo(stepTab(this.order(), this.viewed, action === 'nextTab' ? 1 : -1));
        case 'moveTabRight':
        case 'moveTabLeft': {
          const to = moveIndex(this.order(), this.viewed, action === 'moveTabRight' ? 1 : -1);
          if (to !== null) await this.server.request('reorder', { tabId: this.viewed, toIndex: to, expectedRev: this.rev });
          return;
        }
        case 'closeTab':
          return await this.closeTab(this.viewed);
        case 'takeControl':
          if (this.viewed) await this.server.request('claim', { tabId: this.viewed, force: true });
          return;
        case 'rename':
          return this.startRenaming(this.viewed);
        case 'tabsPicker':
          return await this.openTabsPicker();
        case 'commandPrompt':
          return this.openOverlay({ kind: 'prompt', state: OPEN_PROMPT });
        case 'copyMode':
          return await this.enterCopyMode(0);
        default: {
          const n = /^jump(\d+)$/.exec(action);
          if (n) this.switchTo(jumpTab(this.order(), Number(n[1])));
          return;
        }
      }
    } catch (err) {
      this.addNotice(err instanceof ServerError ? err.message : 'That did not work.');
    }
  }

  private async newTab(): Promise<void> {
    const { tabId } = await this.server.request<{ tabId: string }>('create', this.createArgs());
    await this.viewTab(tabId);
  }

  private switchTo(tabId: string | null): void {
    if (tabId === null || tabId === this.viewed) return;
    void this.viewTab(tabId).catch((err) => {
      this.addNotice(err instanceof ServerError ? err.message : 'That tab cannot be viewed.');
      void this.rebindView(tabId);
    });
  }

  /** Alt+W, /close, the chip menu's Close: a busy tab asks first (SPEC §8). */
  private async closeTab(tabId: string | null): Promise<void> {
    const tab = this.tabs.find((t) => t.id === tabId);
    if (!tab) return;
    const { busy } = await this.server.request<{ busy: boolean }>('busy', { tabId: tab.id });
    if (busy) return this.openOverlay({ kind: 'confirm', state: { kind: 'closeTab', tabId: tab.id, name: tab.name } });
    await this.server.request('close', { tabId: tab.id, expectedRev: this.rev });
  }

  /** /quit-all: stop every tab (asking first when any is busy), then detach. */
  private async quitAll(confirmed: boolean): Promise<void> {
    if (!confirmed) {
      const busy = await Promise.all(this.tabs.map((t) => this.server.request<{ busy: boolean }>('busy', { tabId: t.id })));
      if (busy.some((b) => b.busy)) return this.openOverlay({ kind: 'confirm', state: { kind: 'quitAll', count: this.tabs.length } });
    }
    for (const t of [...this.tabs]) await this.server.request('close', { tabId: t.id }).catch(() => undefined);
    this.finish(0, '\x1b[2mevery tab was stopped\x1b[0m');
  }

  private openOverlay(overlay: Overlay | null): void {
    this.overlay = overlay;
    this.renderUi();
  }

  private onOverlayKey(ev: InputEvent): void {
    if (this.rename) {
      const r = editRename(this.rename, ev);
      this.rename = r.action.kind === 'none' ? r.state : null;
      if (r.action.kind === 'commit') {
        const { tabId, name } = r.action;
        void this.server.request('rename', { tabId, name, expectedRev: this.rev }).catch((err) => this.addNotice(err instanceof ServerError ? err.message : 'The tab was not renamed.'));
      }
      this.renderUi();
      return;
    }
    const overlay = this.overlay;
    if (!overlay) return;
    switch (overlay.kind) {
      case 'prompt': {
        const r = editPrompt(overlay.state, ev);
        if (r.action.kind === 'none') return this.openOverlay({ kind: 'prompt', state: r.state });
        this.openOverlay(null);
        if (r.action.kind === 'run') void this.runCommand(r.action.command);
        return;
      }
      case 'picker': {
        const r = movePicker(overlay.state, ev);
        if (r.action.kind === 'none') return this.openOverlay({ kind: 'picker', state: r.state });
        this.openOverlay(null);
        if (r.action.kind === 'view') {
          const session = r.action.tabId.startsWith(SESSION_ROW_PREFIX) ? r.action.tabId.slice(SESSION_ROW_PREFIX.length) : null;
          if (session === null) this.switchTo(r.action.tabId);
          else this.chain(() => this.reopenSession(session));
        }
        return;
      }
      case 'confirm': {
        const answer = confirmKey(ev);
        if (answer === 'none') return;
        this.openOverlay(null);
        if (answer === 'cancel') return;
        const state = overlay.state;
        if (state.kind === 'closeTab') void this.server.request('close', { tabId: state.tabId }).catch(() => this.addNotice('The tab could not be closed.'));
        else void this.quitAll(true);
        return;
      }
      case 'hotkeys': {
        const r = scrollHotkeys(overlay.state, ev, hotkeysPageRows(overlay.state, this.cols, this.surfaceRows()));
        return this.openOverlay(r.action === 'close' ? null : { kind: 'hotkeys', state: r.state });
      }
      case 'menu': {
        const r = moveMenu(overlay.state, ev);
        if (r.action.kind === 'none') return this.openOverlay({ kind: 'menu', state: r.state });
        this.openOverlay(null);
        if (r.action.kind === 'select') this.onMenuSelect(r.action.id);
        return;
      }
    }
  }

  private onMenuSelect(id: string): void {
    const tabId = this.menuTab;
    this.menuTab = null;
    if (tabId === null) return this.switchTo(id); // the overflow menu lists tabs by id
    if (id === 'rename') this.startRenaming(tabId);
    else if (id === 'close') void this.closeTab(tabId).catch(() => this.addNotice('The tab could not be closed.'));
  }

  private startRenaming(tabId: string | null): void {
    const tab = this.tabs.find((t) => t.id === tabId);
    if (!tab) return;
    // No editor for a name the server cannot take.
    if (!this.server.serves('rename')) return this.addNotice(unsupported('rename').message);
    this.rename = startRename(tab.id, tab.name);
    this.renderUi();
  }

  private pickerTabs(): PickerTab[] {
    const tabs = this.tabs.map((t) => ({ id: t.id, name: t.name, glyph: glyphText(glyphFor(t), 0), status: t.lifecycle, cwd: t.cwd, title: printableTitle(t.title) }));
    // Sessions no live tab holds come after the tabs: Enter reopens one on purpose (SPEC §9).
    const held = new Set(this.tabs.map((t) => t.sessionId).filter(Boolean));
    const past = this.pastSessions
      .filter((s) => !held.has(s.sessionId))
      .map((s) => ({ id: SESSION_ROW_PREFIX + s.sessionId, name: s.name, glyph: '', status: s.state, cwd: s.cwd }));
    return [...tabs, ...past];
  }

  private async openTabsPicker(): Promise<void> {
    try {
      this.pastSessions = (await this.server.request<{ sessions: PastSession[] }>('sessions', {})).sessions;
    } catch {
      // The picker still lists the tabs.
    }
    this.openOverlay({ kind: 'picker', state: openPicker(this.pickerTabs(), this.viewed) });
  }

  private async reopenSession(sessionId: string): Promise<void> {
    try {
      const { tabId } = await this.server.request<{ tabId: string }>('openSession', { ...this.createArgs(), sessionId, cwd: null });
      await this.viewTab(tabId);
    } catch (err) {
      this.addNotice(err instanceof ServerError ? err.message : 'That session could not be opened.');
    }
  }

  private async runCommand(command: Command): Promise<void> {
    try {
      switch (command.name) {
        case 'tabs':
          return await this.openTabsPicker();
        case 'new-tab': {
          const { tabId } = await this.server.request<{ tabId: string }>('create', { ...this.createArgs(), name: command.arg ?? undefined });
          return await this.viewTab(tabId);
        }
        case 'name':
          if (this.viewed) await this.server.request('rename', { tabId: this.viewed, name: command.arg, expectedRev: this.rev });
          return;
        case 'close':
          return await this.closeTab(this.viewed);
        case 'sleep':
          if (this.viewed) await this.server.request('sleep', { tabId: this.viewed });
          return;
        case 'restart':
          if (this.viewed) await this.server.request('restart', { tabId: this.viewed, fresh: false, force: true });
          return;
        case 'detach':
        case 'quit':
          return this.detachClient();
        case 'quit-all':
          return await this.quitAll(false);
        case 'hotkeys':
          return this.openOverlay({ kind: 'hotkeys', state: openHotkeys(this.keymap) });
      }
    } catch (err) {
      this.addNotice(err instanceof ServerError ? err.message : 'That command did not work.');
    }
  }

  private sendInput(events: InputEvent[]): void {
    if (events.length === 0) return;
    const view = this.view;
    if (!view) {
      const viewed = this.tabs.find((t) => t.id === this.viewed);
      // A stopped tab with no holder to show it: its r and f are still the client's.
      if (viewed && (viewed.lifecycle === 'failed' || viewed.lifecycle === 'exited')) return this.onStoppedTabKeys(viewed.id, viewed.lifecycle, events);
      // The viewed tab's holder is (re)connecting: keep keys in order until it is there.
      if (this.viewed !== null && viewed?.lifecycle !== 'suspended') this.queueInput(events);
      // A key to a sleeping tab wakes it and is consumed: it was typed at no program, and a
      // resumed agent must not receive half a prompt (SPEC §10: never resent).
      if (viewed?.lifecycle === 'suspended' && !this.waking) {
        this.waking = true;
        void this.viewTab(viewed.id)
          .catch((err) => this.addNotice(err instanceof ServerError ? err.message : 'The tab could not be woken.'))
          .finally(() => (this.waking = false));
      }
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
      void this.server.request('claim', { tabId: view.tabId, force: false }).catch(() => undefined);
      return;
    }
    this.showReadOnly();
  }

  /** With the server stopped, `r` starts one now (a person's start is never budgeted) and `q`
   * leaves; every other key is dropped, since no tab can take it. */
  private onStoppedServerKeys(events: InputEvent[]): void {
    for (const ev of events) {
      if (ev.k !== 'text' || ev.mods?.alt || ev.mods?.ctrl) continue;
      if (ev.s === 'q') return this.finish(0, 'a1 server stopped · run a1 to start it again');
      if (ev.s === 'r') {
        this.autoStarts = [];
        this.serverStopped = false;
        this.persistentNotice = 'reconnecting…';
        this.renderUi();
        return;
      }
    }
  }

  /** `r` and `f` on an exited or failed surface are the client's (SPEC §15): the child is not
   * running, so nothing else wants them. */
  private onStoppedTabKeys(tabId: string, lifecycle: string, events: InputEvent[]): void {
    if (lifecycle !== 'exited' && lifecycle !== 'failed') return;
    for (const ev of events) {
      if (ev.k !== 'text' || ev.mods?.alt || ev.mods?.ctrl) continue;
      const key = ev.s.toLowerCase();
      if (key !== 'r' && (key !== 'f' || lifecycle !== 'failed')) continue;
      void this.server.request('restart', { tabId, fresh: key === 'f' }).catch((err) => this.addNotice(err instanceof ServerError ? err.message : 'The tab could not be restarted.'));
      return;
    }
  }

  private queueInput(events: InputEvent[]): void {
    const size = JSON.stringify(events).length;
    if (this.pendingInputBytes + size > PENDING_INPUT_BYTES) {
      this.addNotice('not accepting input');
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

  private showReadOnly(): void {
    const keys = this.keymap.byAction.get('takeControl') ?? [];
    this.addNotice(keys.length > 0 ? `read-only: another terminal controls this tab · ${chordLabel(keys[0])} takes control` : 'read-only: another terminal controls this tab');
  }

  private readonly onResize = (): void => {
    this.cols = this.stdout.columns || this.cols;
    this.rows = this.stdout.rows || this.rows;
    this.compositor.resize(this.cols, this.rows);
    if (this.lastSurface) this.compositor.setSurface({ ...this.lastSurface, full: true }, STRIP_ROWS);
    if (this.view?.isController) this.view.resize(this.cols, this.surfaceRows());
    const copying = this.copy?.state;
    if (copying) {
      // The controller's new width reflows the holder's lines; a viewer's does not.
      const cols = this.view?.isController ? this.cols : copying.cols;
      this.copyStep({ kind: 'resize', cols, height: this.surfaceRows() });
    }
    this.renderUi();
  };

  // ---- copy mode ----

  /** Freezes this client's view of the tab on its history, `scroll` lines back from the live
   * screen; frames keep arriving underneath and show again on leaving. */
  private async enterCopyMode(scroll: number, press?: { x: number; y: number }): Promise<void> {
    const view = this.view;
    const surface = this.lastSurface;
    if (this.copy || !view || !surface) return;
    if (!view.offers('history')) return this.addNotice("This tab's holder is an older version without scrollback; closing and reopening the tab upgrades it.");
    const session: CopySession = { view, state: null, early: [] };
    this.copy = session;
    this.compositor.freezeSurface();
    this.renderUi();
    let head;
    try {
      head = await view.history(0, 0);
    } catch {
      return this.leaveCopyMode();
    }
    if (this.copy !== session) return;
    // The holder's buffer ends with its screen, so the child's cursor is that far from the end.
    const cursorLine = head.total - surface.rows + surface.cursor.y;
    const start = startCopyMode({
      total: head.total,
      cols: surface.cols,
      height: this.surfaceRows(),
      dropped: head.dropped,
      cursor: { line: Math.max(0, cursorLine), col: Math.max(0, surface.cursor.x) },
    });
    this.applyCopyStep(session, start);
    if (scroll !== 0) this.copyStep({ kind: 'scroll', lines: scroll });
    if (press) this.copyStep({ kind: 'pointer', phase: 'press', row: press.y, col: press.x });
    for (const ev of session.early.splice(0)) if (this.copy === session) this.onCopyModeEvent(ev);
  }

  private leaveCopyMode(): void {
    if (!this.copy) return;
    this.copy = null;
    this.compositor.showInstead(null);
    this.schedulePaint();
    this.renderUi();
  }

  private onCopyModeEvent(ev: InputEvent): void {
    if (this.copy && !this.copy.state) {
      this.copy.early.push(ev);
      return;
    }
    const state = this.copy?.state;
    if (!state) return;
    if (ev.k === 'mouse') {
      const pointer = { row: ev.y - STRIP_ROWS, col: ev.x };
      if (ev.action === 'release') return this.copyStep({ kind: 'pointer', phase: 'release', ...pointer });
      if (ev.button === 'left') return this.copyStep({ kind: 'pointer', phase: ev.action === 'press' ? 'press' : 'drag', ...pointer });
      if (ev.action !== 'press') return;
      if (ev.button === 'wheelUp') this.copyStep({ kind: 'scroll', lines: -WHEEL_LINES });
      else if (ev.button === 'wheelDown') {
        this.copyStep({ kind: 'scroll', lines: WHEEL_LINES });
        // Wheeling down to the live screen returns to it, as the wheel brought one here.
        const after = this.copy?.state;
        if (after && atBottom(after)) this.leaveCopyMode();
      }
      return;
    }
    // Typed text arrives in runs ("k0w"); copy mode's keys are one character each.
    if (ev.k === 'text') for (const s of ev.s) this.copyStep({ kind: 'key', event: { ...ev, s } });
    else this.copyStep({ kind: 'key', event: ev });
  }

  private copyStep(action: CopyAction): void {
    const session = this.copy;
    if (!session?.state) return;
    this.applyCopyStep(session, copyModeStep(session.state, action));
  }

  /** Takes the step's state and carries out its effects: pages and searches are asked of this
   * client's holder connection (read-only), a copy goes to the outer terminal as OSC 52. */
  private applyCopyStep(session: CopySession, step: CopyStep): void {
    if (this.copy !== session) return;
    session.state = step.state;
    const view = session.view;
    const answer = (action: () => CopyAction) => {
      const s = this.copy === session ? session.state : null;
      if (s) this.applyCopyStep(session, copyModeStep(s, action()));
    };
    // The holder connection closed under copy mode: the view it froze is gone with it.
    const lost = () => {
      if (this.copy === session) this.leaveCopyMode();
    };
    for (const effect of step.effects) {
      switch (effect.kind) {
        case 'fetch':
          view.history(effect.from, effect.count).then(
            (page) => answer(() => ({ kind: 'page', page })),
            lost,
          );
          break;
        case 'search':
          view.search(effect.text, 'forward').then(
            (r) => answer(() => ({ kind: 'searchResult', total: r.total, matches: r.matches, truncated: r.truncated, dropped: r.dropped })),
            lost,
          );
          break;
        case 'copy': {
          const encoded = osc52(effect.text);
          if (encoded.ok) this.stdout.write(encoded.sequence);
          else this.addNotice(encoded.error.message);
          break;
        }
        case 'notice':
          this.addNotice(effect.text);
          break;
        case 'exit':
          this.leaveCopyMode();
          return;
      }
    }
    if (this.copy !== session) return;
    // Until the view's lines arrive the frozen screen stays up, rather than a blank one.
    if (step.state.window.rows.length > 0) {
      this.compositor.showInstead(copyModePatch(step.state));
      this.schedulePaint();
    }
    this.renderUi();
  }

  // ---- painting ----

  /** Ink and React are most of the start-up cost, and evaluating them blocks the event loop for
   * tens of milliseconds: they load after the first surface paint, so the tab shows first. */
  private requestInk(): void {
    if (this.inkRequested || this.finished) return;
    this.inkRequested = true;
    setImmediate(() => void this.loadInk());
  }

  private async loadInk(): Promise<void> {
    const { InkLayer } = await importWithoutFetch(() => import('./inkLayer.js'));
    if (this.finished) return;
    this.ink = new InkLayer(this.uiProps(), this.rows, (frame) => this.onInkFrame(frame));
  }

  private uiProps() {
    const now = Date.now();
    this.notices = this.notices.filter((n) => n.until > now);
    const copying = this.copy?.state;
    const notices = [
      ...(copying ? [copyModeIndicator(copying)] : this.copy ? ['copy · loading…'] : []),
      ...(this.persistentNotice ? [this.persistentNotice] : []),
      ...this.notices.map((n) => n.text),
      ...this.exitNotice(),
    ];
    this.strip = layoutStrip({
      cols: this.cols,
      tabs: this.tabs.map((t) => ({ id: t.id, name: t.name, glyph: glyphFor(t) })),
      viewed: this.viewed,
      hovered: this.hovered,
      drag: this.drag,
      rename: this.rename ? { tabId: this.rename.tabId, text: this.rename.text, cursor: cursorOffset(this.rename), error: this.rename.error } : null,
      spinnerFrame: this.spinnerFrame,
    });
    if (this.rename?.error) notices.unshift(this.rename.error);
    this.keepSpinning(this.tabs.some((t) => SPINNING.has(glyphFor(t))));
    return { cols: this.cols, strip: this.strip, theme: this.opts.config.theme, notices, overlay: this.overlay, surfaceRows: this.surfaceRows() };
  }

  private keepSpinning(spinning: boolean): void {
    if (spinning && !this.spinnerTimer && !this.finished) {
      this.spinnerTimer = setInterval(() => {
        this.spinnerFrame++;
        this.renderUi();
      }, SPINNER_INTERVAL_MS);
      this.spinnerTimer.unref();
    } else if (!spinning && this.spinnerTimer) {
      clearInterval(this.spinnerTimer);
      this.spinnerTimer = null;
    }
  }

  private exitNotice(): string[] {
    const closeKey = this.keymap.byAction.get('closeTab')?.[0] ?? 'alt+w';
    const viewed = this.tabs.find((t) => t.id === this.viewed);
    if (viewed?.lifecycle === 'suspended') return ['◌ asleep · press any key to wake it'];
    const s = this.viewState;
    if (!s) return [];
    // Shown, never acted on by a1 itself: a stalled agent is never killed automatically (SPEC §10).
    if (s.glyph === 'stalled') return ['⧗ stalled: no progress for a while · Esc interrupts it · /restart restarts it'];
    if (s.glyph === 'unresponsive') return ['! not answering its heartbeat · /restart restarts it'];
    if (s.lifecycle === 'failed') {
      const crashes = s.crashes > 0 ? `crashed ${s.crashes} times` : 'could not start';
      return [`failed: ${crashes} · read-only`, `[r] retry  [f] start fresh  [${closeKey}] close`];
    }
    if (s.lifecycle !== 'exited' || !s.exit) return [];
    const how = s.exit.signal ? `signal ${s.exit.signal}` : `status ${s.exit.code}`;
    return [`exited with ${how} · read-only`, `[r] restart  [${closeKey}] close`];
  }

  private renderUi(): void {
    this.ink?.update(this.uiProps(), this.rows);
  }

  private onInkFrame(frame: string): void {
    const lines = frame.split('\n');
    this.compositor.setLayer('strip', { x: 0, y: 0, w: this.cols, h: STRIP_ROWS }, ansiToCells(lines.slice(0, STRIP_ROWS).join('\n'), this.cols, STRIP_ROWS));
    let next = STRIP_ROWS;
    if (this.overlay) {
      const { w, h } = overlaySize(this.overlay, this.cols, this.surfaceRows());
      const box = lines.slice(next, next + h);
      next += h;
      const cells = new CellGrid(Math.max(1, w), Math.max(1, h));
      cells.blit(ansiToCells(box.join('\n'), this.cols, Math.max(1, h)), 0, 0, w, h, 0, 0);
      this.compositor.setLayer('overlay', { x: Math.max(0, Math.floor((this.cols - w) / 2)), y: STRIP_ROWS + OVERLAY_TOP_GAP, w, h }, cells);
    } else {
      this.compositor.setLayer('overlay', null);
    }
    const noticeLines = lines.slice(next).filter((l) => l.length > 0);
    const all = ansiToCells(noticeLines.join('\n'), this.cols, Math.max(1, noticeLines.length));
    const width = noticeLines.length > 0 ? usedWidth(all) : 0;
    if (width > 0) {
      const notices = new CellGrid(width, noticeLines.length);
      notices.blit(all, 0, 0, width, noticeLines.length, 0, 0);
      this.compositor.setLayer('notices', { x: this.cols - width, y: STRIP_ROWS, w: width, h: noticeLines.length }, notices);
    } else {
      this.compositor.setLayer('notices', null);
    }
    this.schedulePaint();
  }

  private schedulePaint(now = false): void {
    if (this.paintPending || this.finished) return;
    const wait = this.lastPaint + PAINT_INTERVAL_MS - performance.now();
    if (now && wait <= 0) return this.paint();
    this.paintPending = true;
    if (wait <= 0) setImmediate(this.paint);
    else this.paintTimer = setTimeout(this.paint, wait);
  }

  private readonly paint = (): void => {
    this.paintPending = false;
    this.paintTimer = null;
    if (this.finished) return;
    this.lastPaint = performance.now();
    const out = this.compositor.render();
    if (out) this.stdout.write(out);
    if (this.lastSurface) this.requestInk();
  };

  private addNotice(text: string): void {
    this.notices.push({ text, until: Date.now() + NOTICE_MS });
    this.renderUi();
    setTimeout(() => this.renderUi(), NOTICE_MS + 10).unref();
  }

  // ---- leaving ----

  private detachClient(): void {
    const running = this.tabs.length;
    const hint = `\x1b[2m${running} ${running === 1 ? 'tab' : 'tabs'} still running · run a1 to return\x1b[0m\n`;
    this.finish(0, hint);
  }

  private installSafety(): void {
    const onSignal = () => this.finish(0);
    process.once('SIGTERM', onSignal);
    process.once('SIGHUP', onSignal);
    process.once('SIGINT', onSignal);
    process.once('uncaughtException', (err) => {
      this.finish(1, `a1: internal error (${(err as Error).name}).\n`);
    });
    process.once('exit', () => this.outer.restore());
  }

  private finish(code: number, message?: string): void {
    if (this.finished) return;
    this.finished = true;
    if (this.paintTimer) clearTimeout(this.paintTimer);
    if (this.chordTimer) clearTimeout(this.chordTimer);
    if (this.spinnerTimer) clearInterval(this.spinnerTimer);
    this.stdin.off('data', this.onStdin);
    this.outer.restore();
    if (message) writeSync(this.stdout, message.endsWith('\n') ? message : message + '\n');
    this.view?.close();
    this.server.close();
    this.ink?.dispose();
    this.stdin.pause();
    this.done?.(code);
  }
}

/**
 * yoga-layout (Ink's layout engine) probes `typeof fetch` while it loads, and in Node 20 the
 * first touch of that global loads undici: about 40 ms of CPU and its memory, for nothing,
 * since the wasm is embedded. Hidden while Ink loads, the loader decodes the embedded copy.
 */
async function importWithoutFetch<T>(load: () => Promise<T>): Promise<T> {
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (!fetchProperty?.configurable) return load();
  Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, 'fetch', fetchProperty);
  }
}

/** Columns up to the last cell that shows something (text or a background). */
function usedWidth(grid: CellGrid): number {
  let w = 0;
  for (let y = 0; y < grid.rows; y++) {
    for (let x = grid.cols - 1; x >= w; x--) {
      const i = grid.index(x, y);
      if (grid.bg[i] !== DEFAULT_COLOR || (grid.ch[i] !== ' ' && grid.ch[i] !== '')) {
        w = x + 1;
        break;
      }
    }
  }
  return w;
}

/** A child's title as the picker may draw it: control characters and bidi overrides (which could move the outer
 * terminal's cursor or start a sequence) are dropped. */
function printableTitle(title: string): string {
  return title.replace(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu, '');
}

/** Two reports of the same thing that differ at most in the title (some agents animate it). */
function sameBesidesTitle<T extends { title: string }>(a: T | null | undefined, b: T): boolean {
  return !!a && JSON.stringify({ ...a, title: '' }) === JSON.stringify({ ...b, title: '' });
}
