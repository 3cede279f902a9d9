// The attach client (SPEC §8): one writer owns stdout; surface patches from the viewed tab's
// holder and the Ink layer are composited into cells, and only changed cells are written. The
// services (attach/) are built in dependency order by composeAttach (attach/compose.ts), each
// from services built before it; what a service must hear from a later one comes as an event,
// subscribed here once all exist. Everything that holds a resource is in one DisposableStore, so
// leaving is one dispose().
import { ServerClient } from '../client/serverClient.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import type { Disposable } from '../disposable.js';
import { toDisposable } from '../disposable.js';
import { neighbourAfterClose } from './navigation.js';
import { runOverlayCommand } from './attach/actions.js';
import { composeAttach, type AttachIO, type AttachServices } from './attach/compose.js';
import { firstTab, onFirstViewRefused } from './attach/firstView.js';

/** The strip appears even for a tab whose surface never arrives. */
const INK_LOAD_FALLBACK_MS = 300;
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
  return attach(opts, server, { stdin, stdout, hooks: process });
}

/** Runs the attach client on `server` until it leaves; resolves with its exit code. */
export function attach(opts: ClientOptions, server: ServerClient, io: AttachIO): Promise<number> {
  return new AttachClient(opts, composeAttach(opts, server, io), io).run();
}

class AttachClient {
  /** The strip order at the last topology change: where a closed viewed tab's neighbours were. */
  private lastOrder: string[] = [];

  constructor(
    private readonly opts: ClientOptions,
    private readonly s: AttachServices,
    private readonly io: AttachIO,
  ) {
    this.s.store.add(this.subscribe());
    this.releaseInOrder();
  }

  /** What the services hear from services built after them. */
  private subscribe(): Disposable {
    const { s } = this;
    const subscriptions = [
      s.redraw.event(() => s.layers.render()),
      s.notices.onChange(() => s.renderUi()),
      s.painter.onSurfacePainted(() => s.layers.requestInk()),
      s.topology.event((onlyTitle) => this.onTopology(onlyTitle)),
      // Every tab is being stopped on purpose: leave, and start no replacement server.
      s.hostStopping.event(() => s.leaving.finish(0, HOST_STOPPED_MESSAGE)),
      s.viewLink.onLeavingView(() => s.copyMode.leave()),
      s.viewLink.onSurfaceWidth((cols) => s.copyMode.followWidth(cols)),
      s.viewLink.onViewClosed((view) => s.copyMode.onViewClosed(view)),
      s.overlays.onCommand((chosen) => runOverlayCommand(s.ops, chosen)),
      s.stripMouse.onAction((action) => s.input.enqueueAction(action)),
    ];
    return toDisposable(() => subscriptions.forEach((d) => d.dispose()));
  }

  /** Released in this order: nothing paints or fires once leaving starts; the outer terminal
   * is restored (kitty flags popped, modes reset) before the parting message; the links close. */
  private releaseInOrder(): void {
    const { store, input, outer, leaving } = this.s;
    const { stdin, stdout } = this.io;
    for (const d of [this.s.painter, this.s.layers, input, this.s.stripMouse, this.s.ui, this.s.notices]) store.add(d);
    store.add(toDisposable(() => stdin.off('data', input.onStdin)));
    store.add(toDisposable(() => stdout.off('resize', this.onResize)));
    store.add(toDisposable(() => outer.restore()));
    store.add(toDisposable(() => leaving.writeMessage(stdout)));
    store.add(this.s.viewLink);
    store.add(this.s.control);
    store.add(toDisposable(() => stdin.pause()));
  }

  async run(): Promise<number> {
    const { s } = this;
    this.installSafety();
    try {
      // Sent together: the server answers a connection's messages in order, so the tab comes
      // one round trip after the snapshot instead of two.
      const subscribed = s.control.subscribe();
      const first = firstTab(this.opts);
      const tab =
        first.kind === 'view'
          ? Promise.resolve({ tabId: first.tabId })
          : first.kind === 'openSession'
          ? s.control.request('openSession', { ...s.createArgs(), ...first.session })
          : s.control.request('ensureTab', s.createArgs());
      tab.catch(() => undefined); // a failed subscribe is the error reported
      await subscribed;
      const { tabId } = await tab;
      // Left while the tab was asked for (a signal, the host stopping): the outer terminal is
      // not entered for a client that is gone.
      if (s.store.isDisposed) return s.leaving.exitCode;
      s.outer.enter();
      this.io.stdin.on('data', s.input.onStdin);
      this.io.stdout.on('resize', this.onResize);
      await s.viewLink.viewTab(tabId).catch((err: unknown) => {
        const refusal = onFirstViewRefused(err);
        if (refusal.kind === 'leave') throw err;
        s.addNotice(refusal.notice);
        void s.viewLink.rebindView(tabId);
      });
      // Normally the first surface paint loads Ink; this covers a tab that sends no surface.
      setTimeout(() => s.layers.requestInk(), INK_LOAD_FALLBACK_MS).unref();
    } catch (err) {
      s.leaving.finish(1, `a1: ${(err as Error).message}`);
    }
    return s.leaving.exitCode;
  }

  private onTopology(onlyTitle = false): void {
    const { control, viewLink, overlays } = this.s;
    // An animated title changes nothing on the strip: only an open picker redraws for it.
    if (onlyTitle && overlays.overlay?.kind !== 'picker') return;
    const order = control.tabs.map((t) => t.id);
    const gone = viewLink.viewed;
    if (gone !== null && viewLink.dropGoneTab()) {
      const next = neighbourAfterClose(this.lastOrder, order, gone);
      if (next) void viewLink.viewTab(next);
    }
    this.lastOrder = order;
    overlays.followTabs();
    this.s.renderUi();
  }

  private readonly onResize = (): void => this.s.ui.resize();

  private installSafety(): void {
    const { hooks } = this.io;
    const { leaving, outer } = this.s;
    const onSignal = () => leaving.finish(0);
    hooks.once('SIGTERM', onSignal);
    hooks.once('SIGHUP', onSignal);
    hooks.once('SIGINT', onSignal);
    hooks.once('uncaughtException', (err: Error) => {
      leaving.finish(1, `a1: internal error (${err.name}).\n`);
    });
    hooks.once('exit', () => outer.restore());
  }
}
