// The attach client's services, built in dependency order (issue 29): each takes, in its
// constructor, only services built before it. What a service must tell a later one it does by an
// event (an Emitter), which the client subscribes once every service exists (app/client.ts); no
// service holds a callback into one that is not built yet.
import type { ServerClient } from '../../client/serverClient.js';
import { ControlLink } from '../../client/controlLink.js';
import { DisposableStore } from '../../disposable.js';
import { Emitter } from '../../emitter.js';
import { newId } from '../../security.js';
import type { Keymap } from '../../keymap/keys.js';
import { loadKeymap } from '../keybindings.js';
import { OuterTerminal, styledUnderlines, uiColour } from '../outerTerminal.js';
import type { ClientOptions } from '../client.js';
import type { ClientOps } from './actions.js';
import { ActionQueue } from './actionQueue.js';
import { CopyModeEffects } from './copyModeEffects.js';
import { HintLine } from './hintLine.js';
import { TerminalInput } from './input.js';
import { detachMessage, Leaving } from './leaving.js';
import { Notices, readOnlyNotice } from './notices.js';
import { Overlays } from './overlays.js';
import { Painter } from './painter.js';
import { AttachScreen } from './screen.js';
import { StripMouse } from './stripMouse.js';
import { UiLayers } from './uiLayers.js';
import { UiModel } from './uiModel.js';
import { ViewedTab, ViewLink } from './viewLink.js';

/** The process hooks the client installs its last-chance handlers on (signals, an uncaught
 * exception, exit): the process itself, or a test's stand-in. */
export type ProcessHooks = Pick<NodeJS.EventEmitter, 'once'>;

/** The outer terminal and the process the client runs in. */
export interface AttachIO {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  hooks: ProcessHooks;
}

/** What the server link tells the client, subscribed once every service exists. */
interface ServerEvents {
  /** The tab list changed; true: nothing but a tab's title did. */
  readonly topology: Emitter<boolean>;
  /** Every tab is being stopped on purpose (`a1 tabs host stop`). */
  readonly hostStopping: Emitter;
}

/** The ones every service may use: the notices, the UI's redraw, the way out. */
interface Basics {
  readonly store: DisposableStore;
  readonly leaving: Leaving;
  readonly clientId: string;
  readonly keymap: Keymap;
  readonly notices: Notices;
  /** Fired to draw the UI again; the UI's layers listen once they exist. */
  readonly redraw: Emitter;
  renderUi(): void;
  addNotice(text: string): void;
}

export interface AttachServices extends Basics, ServerEvents {
  readonly outer: OuterTerminal;
  readonly screen: AttachScreen;
  readonly painter: Painter;
  readonly control: ControlLink;
  readonly viewLink: ViewLink;
  readonly copyMode: CopyModeEffects;
  readonly overlays: Overlays;
  readonly stripMouse: StripMouse;
  readonly ops: ClientOps;
  readonly input: TerminalInput;
  readonly ui: UiModel;
  readonly layers: UiLayers;
  /** The arguments a new tab is created with: this client's directory, environment and size. */
  createArgs(): object;
}

export function composeAttach(opts: ClientOptions, server: ServerClient, io: AttachIO): AttachServices {
  const basics = composeBasics(opts);
  const { notices, keymap, renderUi, addNotice } = basics;
  const hint = new HintLine(opts.paths.stateDir, keymap);
  const screen = new AttachScreen(io.stdout, hint);
  const outer = new OuterTerminal(io.stdin, io.stdout);
  const painter = new Painter(io.stdout, screen, styledUnderlines(opts.env));
  const events: ServerEvents = { topology: new Emitter<boolean>(), hostStopping: new Emitter() };
  const viewedTab = new ViewedTab();
  const control = new ControlLink(server, {
    paths: opts.paths,
    profile: opts.profile,
    env: opts.env,
    clientId: basics.clientId,
    size: () => ({ cols: screen.cols, rows: screen.rows }),
    onTopology: (onlyTitle) => events.topology.fire(onlyTitle ?? false),
    addNotice,
    onLinkState: (state) => notices.setLink(state),
    viewed: () => viewedTab.id,
    onHostStopping: () => events.hostStopping.fire(),
  });
  const surfaceSize = () => screen.surfaceSize();
  const surfaceTop = () => screen.surfaceTop();
  const viewLink = new ViewLink({
    clientId: basics.clientId,
    control,
    painter,
    viewedTab,
    surfaceSize,
    addNotice,
    showReadOnly: () => addNotice(readOnlyNotice(keymap)),
    renderUi,
    // The viewed tab's child set the clipboard (OSC 52); the user's config decides.
    onClipboard: (sequence) => {
      if (opts.config.allowClipboardWrite) io.stdout.write(sequence);
    },
  });
  const copyMode = new CopyModeEffects({
    painter,
    view: () => viewLink.view,
    surfaceRows: () => surfaceSize().rows,
    surfaceTop,
    renderUi,
    addNotice,
    write: (sequence) => io.stdout.write(sequence),
  });
  const createArgs = () => ({ cwd: process.cwd(), env: opts.env, umask: opts.umask, cols: screen.cols, rows: surfaceSize().rows });
  const queue = new ActionQueue();
  const overlays = new Overlays({ control, viewLink, queue, createArgs, addNotice, surfaceSize, renderUi });
  const stripMouse = new StripMouse({ control, overlays, viewLink, strip: () => screen.strip, addNotice, renderUi });
  const ops: ClientOps = {
    control,
    overlays,
    copyMode,
    keymap,
    createArgs,
    newTabInCurrentDir: opts.config.newTabInCurrentDir,
    addNotice,
    viewed: () => viewLink.viewed,
    viewTab: (tabId) => viewLink.viewTab(tabId),
    switchTo: (tabId) => viewLink.switchTo(tabId),
    detachClient: () => basics.leaving.finish(0, detachMessage(control.tabs.length)),
    finish: (code, message) => basics.leaving.finish(code, message),
  };
  const input = new TerminalInput({
    ops,
    queue,
    viewLink,
    painter,
    stripMouse,
    outer,
    detachIntervalMs: opts.config.detachIntervalMs,
    escapeTimeoutMs: opts.config.escapeTimeoutMs,
    hintKey: () => hint.key(),
    dismissHint: () => {
      hint.dismiss();
      renderUi();
    },
    noteKeyUsed: (action) => {
      if (hint.noteUsed(action)) renderUi();
    },
    surfaceTop,
  });
  const colour = uiColour(opts.env);
  const ui = new UiModel({ config: opts.config, colour, keymap, screen, hint, notices, control, viewLink, copyMode, overlays, stripMouse, painter, renderUi });
  const layers = new UiLayers(painter, screen, ui, colour);
  return { ...basics, ...events, outer, screen, painter, control, viewLink, copyMode, overlays, stripMouse, ops, input, ui, layers, createArgs };
}

/** The store, the way out, the keymap and the notices (the keymap's and the config's problems
 * among them). */
function composeBasics(opts: ClientOptions): Basics {
  const store = new DisposableStore();
  const notices = new Notices();
  const redraw = new Emitter();
  const loaded = loadKeymap(opts.paths.keybindingsFile);
  const addNotice = (text: string) => notices.add(text);
  for (const problem of [loaded.problem, ...loaded.conflicts, opts.configProblem]) if (problem) addNotice(problem);
  return { store, leaving: new Leaving(store), clientId: newId('cl'), keymap: loaded.keymap, notices, redraw, renderUi: () => redraw.fire(), addNotice };
}
