// The attach client (SPEC §8): one writer owns stdout; surface patches from the viewed tab's
// holder and the Ink layer are composited into cells, and only changed cells are written. This
// file wires the client's services (attach/) together: input is routed by attach/routeEvents.ts,
// and everything that holds a resource is in one DisposableStore, so leaving is one dispose().
import { ServerClient, ServerError } from '../client/serverClient.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import { newId } from '../security.js';
import { OuterTerminal, styledUnderlines, uiColour, writeSync } from './outerTerminal.js';
import type { Keymap } from '../keymap/keys.js';
import type { ActionId } from '../keymap/actions.js';
import { loadKeymap } from './keybindings.js';
import { layoutStrip, type StripLayout } from './strip/layout.js';
import { glyphFor } from './ui/chip.js';
import type { UiProps } from './ui/Ui.js';
import { chordLabel } from './overlays/hotkeys.js';
import { cursorOffset } from './overlays/lineEditor.js';
import { DisposableStore, toDisposable } from '../disposable.js';
import { surfaceRowsOf } from './attach/geometry.js';
import type { ClientOps } from './attach/actions.js';
import { TerminalInput, type InputHost } from './attach/input.js';
import { ControlLink } from '../client/controlLink.js';
import { ViewLink } from './attach/viewLink.js';
import { Painter } from './attach/painter.js';
import { CopyModeEffects } from './attach/copyModeEffects.js';
import { Overlays, type OverlaysHost } from './attach/overlays.js';
import { StripMouse, type StripMouseHost } from './attach/stripMouse.js';
import { Notices, tabStateNotice } from './attach/notices.js';
import { neighbourAfterClose } from './navigation.js';
import { emptyStripHint, HintLine } from './attach/hintLine.js';

/** The strip appears even for a tab whose surface never arrives. */
const INK_LOAD_FALLBACK_MS = 300;
/** Spinner frames advance this often while a chip spins: smooth enough, and cheap. */
const SPINNER_INTERVAL_MS = 125;
const SPINNING: ReadonlySet<string> = new Set(['working', 'starting']);
const HOST_STOPPED_MESSAGE = '\x1b[2ma1 was stopped (a1 tabs host stop) · run a1 to start it again\x1b[0m';

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
  /** Views this tab first instead of the last viewed one (`a1 attach TAB`). */
  viewTab?: string;
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

class AttachClient implements ClientOps, OverlaysHost, StripMouseHost, InputHost {
  readonly clientId = newId('cl');
  readonly keymap: Keymap;
  readonly painter: Painter;
  readonly control: ControlLink;
  readonly viewLink: ViewLink;
  readonly copyMode: CopyModeEffects;
  readonly overlays: Overlays;
  readonly stripMouse: StripMouse;
  readonly outer: OuterTerminal;
  readonly detachIntervalMs: number;
  private readonly input: TerminalInput;
  private readonly notices = new Notices(() => this.renderUi());
  /** Everything to release on leaving, in the order it is released. */
  private readonly store = new DisposableStore();
  private cols: number;
  private rows: number;
  private stripLayout: StripLayout | null = null;
  /** The strip order at the last topology change: where a closed viewed tab's neighbours were. */
  private lastOrder: string[] = [];
  /** Advances while a chip spins (working, starting); stopped when none does, to stay idle. */
  private spinnerFrame = 0;
  private spinnerTimer: NodeJS.Timeout | null = null;
  private done: ((code: number) => void) | null = null;
  /** Written to the main screen once the outer terminal is restored. */
  private exitMessage: string | undefined;
  /** a1's own UI in colour: false under NO_COLOR. */
  private readonly colour: boolean;
  /** The first-run hint (set once the keymap is known). */
  private readonly hint: HintLine;

  constructor(
    private readonly opts: ClientOptions,
    server: ServerClient,
    private readonly stdin: NodeJS.ReadStream,
    private readonly stdout: NodeJS.WriteStream,
  ) {
    this.outer = new OuterTerminal(stdin, stdout);
    this.detachIntervalMs = opts.config.detachIntervalMs;
    this.cols = stdout.columns || 80;
    this.rows = stdout.rows || 24;
    this.colour = uiColour(opts.env);
    this.painter = new Painter(stdout, this.cols, this.rows, { props: () => this.uiProps(), overlay: () => this.overlays.overlay, hint: () => this.hint.drawn, surfaceTop: () => this.surfaceTop() }, this.colour, styledUnderlines(opts.env));
    this.control = new ControlLink(server, {
      paths: opts.paths,
      profile: opts.profile,
      env: opts.env,
      clientId: this.clientId,
      size: () => ({ cols: this.cols, rows: this.rows }),
      onTopology: (onlyTitle) => this.onTopology(onlyTitle),
      addNotice: (text) => this.addNotice(text),
      onLinkState: (state) => this.notices.setLink(state),
      viewed: () => this.viewed(),
      // Every tab is being stopped on purpose: leave, and start no replacement server.
      onHostStopping: () => this.finish(0, HOST_STOPPED_MESSAGE),
    });
    this.copyMode = new CopyModeEffects({
      painter: this.painter,
      view: () => this.viewLink.view,
      surfaceRows: () => this.surfaceSize().rows,
      surfaceTop: () => this.surfaceTop(),
      renderUi: () => this.renderUi(),
      addNotice: (text) => this.addNotice(text),
      write: (sequence) => this.stdout.write(sequence),
    });
    this.viewLink = new ViewLink({
      clientId: this.clientId,
      control: this.control,
      painter: this.painter,
      copyMode: this.copyMode,
      surfaceSize: () => this.surfaceSize(),
      addNotice: (text) => this.addNotice(text),
      showReadOnly: () => this.showReadOnly(),
      renderUi: () => this.renderUi(),
      // The viewed tab's child set the clipboard (OSC 52); the user's config decides.
      onClipboard: (sequence) => {
        if (this.opts.config.allowClipboardWrite) this.stdout.write(sequence);
      },
    });
    this.overlays = new Overlays(this);
    this.stripMouse = new StripMouse(this);
    this.input = new TerminalInput(this, opts.config.escapeTimeoutMs);
    // Released in this order: nothing paints or fires once leaving starts; the outer terminal
    // is restored (kitty flags popped, modes reset) before the parting message; the links close.
    this.store.add(this.painter);
    this.store.add(this.input);
    this.store.add(this.stripMouse);
    this.store.add(toDisposable(() => this.keepSpinning(false)));
    this.store.add(toDisposable(() => this.stdin.off('data', this.input.onStdin)));
    this.store.add(toDisposable(() => this.outer.restore()));
    this.store.add(toDisposable(() => this.exitMessage && writeSync(this.stdout, this.exitMessage)));
    this.store.add(this.viewLink);
    this.store.add(this.control);
    this.store.add(toDisposable(() => this.stdin.pause()));
    const loaded = loadKeymap(opts.paths.keybindingsFile);
    this.keymap = loaded.keymap;
    if (loaded.problem) this.addNotice(loaded.problem);
    for (const conflict of loaded.conflicts) this.addNotice(conflict);
    if (opts.configProblem) this.addNotice(opts.configProblem);
    this.hint = new HintLine(opts.paths.stateDir, this.keymap);
    // Before the first tab's size is asked for: whether the hint takes a row from it.
    this.hint.relay(this.cols, this.layoutStripNow());
  }

  async run(): Promise<number> {
    const exitCode = new Promise<number>((resolve) => (this.done = resolve));
    this.installSafety();
    try {
      // Sent together: the server answers a connection's messages in order, so the tab comes
      // one round trip after the snapshot instead of two.
      const subscribed = this.control.subscribe();
      const tab = this.opts.viewTab
        ? Promise.resolve({ tabId: this.opts.viewTab })
        : this.opts.openSession
        ? this.control.request('openSession', { ...this.createArgs(), ...this.opts.openSession })
        : this.control.request('ensureTab', this.createArgs());
      tab.catch(() => undefined); // a failed subscribe is the error reported
      await subscribed;
      const { tabId } = await tab;
      this.outer.enter();
      this.stdin.on('data', this.input.onStdin);
      this.stdout.on('resize', this.onResize);
      await this.viewLink.viewTab(tabId).catch((err: unknown) => {
        // A tab with no process to show (failed, its start refused) must not stand between the
        // user and the other tabs: the strip stays, r/f/Alt+W and switching work, and the view
        // comes once the tab runs again.
        if (!(err instanceof ServerError) || err.code !== 'holder-unavailable') throw err;
        this.addNotice(`${err.message} r retries, f starts fresh, Alt+W closes it.`);
        void this.viewLink.rebindView(tabId);
      });
      // Normally the first surface paint loads Ink; this covers a tab that sends no surface.
      setTimeout(() => this.painter.requestInk(), INK_LOAD_FALLBACK_MS).unref();
    } catch (err) {
      this.finish(1, `a1: ${(err as Error).message}`);
    }
    return exitCode;
  }

  // ---- what the services share ----

  viewed(): string | null {
    return this.viewLink.viewed;
  }

  createArgs(): object {
    return { cwd: process.cwd(), env: this.opts.env, umask: this.opts.umask, cols: this.cols, rows: this.surfaceSize().rows };
  }

  get newTabInCurrentDir(): boolean {
    return this.opts.config.newTabInCurrentDir;
  }

  surfaceSize(): { cols: number; rows: number } {
    return { cols: this.cols, rows: surfaceRowsOf(this.rows, this.surfaceTop()) };
  }

  surfaceTop(): number {
    return this.hint.surfaceTop();
  }

  strip(): StripLayout | null {
    return this.stripLayout;
  }

  viewTab(tabId: string): Promise<void> {
    return this.viewLink.viewTab(tabId);
  }

  switchTo(tabId: string | null): void {
    if (tabId === null || tabId === this.viewed()) return;
    void this.viewLink.viewTab(tabId).catch((err) => {
      this.addNotice(err instanceof ServerError ? err.message : 'That tab cannot be viewed.');
      void this.viewLink.rebindView(tabId);
    });
  }

  addNotice(text: string): void {
    this.notices.add(text);
  }

  private showReadOnly(): void {
    const keys = this.keymap.byAction.get('takeControl') ?? [];
    this.addNotice(keys.length > 0 ? `read-only: another terminal controls this tab · ${chordLabel(keys[0])} takes control` : 'read-only: another terminal controls this tab');
  }

  private onTopology(onlyTitle = false): void {
    // An animated title changes nothing on the strip: only an open picker redraws for it.
    if (onlyTitle && this.overlays.overlay?.kind !== 'picker') return;
    const order = this.control.tabs.map((t) => t.id);
    const gone = this.viewLink.viewed;
    if (gone !== null && this.viewLink.dropGoneTab()) {
      const next = neighbourAfterClose(this.lastOrder, order, gone);
      if (next) void this.viewLink.viewTab(next);
    }
    this.lastOrder = order;
    this.overlays.followTabs();
    this.renderUi();
  }

  private readonly onResize = (): void => {
    this.cols = this.stdout.columns || this.cols;
    this.rows = this.stdout.rows || this.rows;
    // The tab's new size below already leaves the hint's row, if it has one at this width.
    this.hint.relay(this.cols, this.layoutStripNow());
    this.painter.resize(this.cols, this.rows);
    this.viewLink.resize();
    const copyCols = this.copyMode.cols;
    // The controller's new width reflows the holder's lines; a viewer's does not.
    if (copyCols !== null) this.copyMode.resize(this.viewLink.view?.isController ? this.cols : copyCols);
    this.renderUi();
  };

  hintKey(): string | null {
    return this.hint.key();
  }

  dismissHint(): void {
    this.hint.dismiss();
    this.renderUi();
  }

  noteKeyUsed(action: ActionId): void {
    if (this.hint.noteUsed(action)) this.renderUi();
  }

  /** The hint took or left its own row: the tab is resized to the rows left, so no program
   *  draws under the hint, and gets its row back when the hint goes. */
  private onSurfaceMoved(): void {
    this.painter.moveSurface();
    this.viewLink.resize();
    const copyCols = this.copyMode.cols;
    if (copyCols !== null) this.copyMode.resize(copyCols);
  }

  enqueueAction(action: ActionId): void {
    this.input.enqueueAction(action);
  }

  chain(step: () => void | Promise<void>): void {
    this.input.chain(step);
  }

  // ---- the UI ----

  private uiProps(): UiProps {
    const { overlays, viewLink } = this;
    const closeKey = this.keymap.byAction.get('closeTab')?.[0] ?? 'alt+w';
    const viewedTab = this.control.tabs.find((t) => t.id === viewLink.viewed);
    const notices = [
      ...this.copyMode.indicator(),
      ...this.notices.current(),
      ...tabStateNotice(viewedTab, viewLink.viewState, closeKey),
    ];
    if (overlays.rename?.error) notices.unshift(overlays.rename.error);
    this.stripLayout = this.layoutStripNow();
    if (this.hint.relay(this.cols, this.stripLayout)) this.onSurfaceMoved();
    this.keepSpinning(this.control.tabs.some((t) => SPINNING.has(glyphFor(t))));
    const { cols, rows: surfaceRows } = this.surfaceSize();
    return { cols, strip: this.stripLayout, theme: this.opts.config.theme, colour: this.colour, notices, hint: this.hint.drawn?.text ?? null, overlay: overlays.overlay, surfaceRows };
  }

  private layoutStripNow(): StripLayout {
    const rename = this.overlays.rename;
    return layoutStrip({
      cols: this.cols,
      tabs: this.control.tabs.map((t) => ({ id: t.id, name: t.name, glyph: glyphFor(t) })),
      viewed: this.viewLink.viewed,
      hovered: this.stripMouse.hovered,
      drag: this.stripMouse.drag,
      rename: rename ? { tabId: rename.tabId, text: rename.text, cursor: cursorOffset(rename), error: rename.error } : null,
      spinnerFrame: this.spinnerFrame,
      emptyHint: emptyStripHint(this.keymap),
      numbers: this.opts.config.chipNumbers,
    });
  }

  private keepSpinning(spinning: boolean): void {
    if (spinning && !this.spinnerTimer && !this.store.isDisposed) {
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

  renderUi(): void {
    this.painter.renderUi();
  }

  // ---- leaving ----

  detachClient(): void {
    const running = this.control.tabs.length;
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

  /** Leaves: the one dispose() restores the outer terminal on every path. */
  finish(code: number, message?: string): void {
    if (this.store.isDisposed) return;
    this.exitMessage = message && (message.endsWith('\n') ? message : message + '\n');
    this.store.dispose();
    this.done?.(code);
  }
}
