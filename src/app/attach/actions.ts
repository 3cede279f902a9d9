// What a1's prompt commands do, one handler each, and the keys that run them: every keymap
// action declares its command (keymap/actions.ts), so a key and its command do the same thing by
// construction. The table is exhaustive over the prompt's commands: a command without a handler
// does not compile.
import { ServerError } from '../../client/serverClient.js';
import { ACTIONS, type ActionId } from '../../keymap/actions.js';
import type { Keymap } from '../../keymap/keys.js';
import { parseCommand, type Command, type CommandName } from '../overlays/commands.js';
import { OPEN_PROMPT } from '../overlays/prompt.js';
import { openHotkeys, openHelp } from '../overlays/hotkeys.js';
import { jumpTab, moveIndex, stepTab } from '../navigation.js';
import type { ControlLink } from '../../client/controlLink.js';
import type { CopyModeEffects } from './copyModeEffects.js';
import type { OverlayCommand, Overlays } from './overlays.js';

const EVERY_TAB_STOPPED_MESSAGE = '\x1b[2mevery tab was stopped\x1b[0m';

/** The client as its actions and commands use it. */
export interface ClientOps {
  readonly control: ControlLink;
  readonly overlays: Overlays;
  readonly copyMode: CopyModeEffects;
  readonly keymap: Keymap;
  viewed(): string | null;
  /** The arguments a new tab is created with: this client's directory, environment and size. */
  createArgs(): object;
  /** New tabs open where the viewed tab's shell is now (the `newTabInCurrentDir` config key). */
  readonly newTabInCurrentDir: boolean;
  viewTab(tabId: string): Promise<void>;
  /** Views `tabId` (null: stays), telling the user when it cannot be viewed. */
  switchTo(tabId: string | null): void;
  detachClient(): void;
  addNotice(text: string): void;
  finish(code: number, message?: string): void;
}

const order = (c: ClientOps): string[] => c.control.tabs.map((t) => t.id);
const step =
  (by: 1 | -1) =>
  (c: ClientOps): void =>
    c.switchTo(stepTab(order(c), c.viewed(), by));

type CommandHandlers = { readonly [K in CommandName]: (c: ClientOps, command: Extract<Command, { name: K }>) => void | Promise<void> };

/** Runs `fn` on the viewed tab, if there is one. */
const onViewed =
  (fn: (c: ClientOps, tabId: string) => Promise<unknown>) =>
  async (c: ClientOps) => {
    const viewed = c.viewed();
    if (viewed) await fn(c, viewed);
  };

export const COMMAND_HANDLERS: CommandHandlers = {
  tabs: (c) => c.overlays.openTabsPicker(),
  'new-tab': (c, command) => newTab(c, { name: command.arg ?? undefined }),
  'next-tab': step(1),
  'previous-tab': step(-1),
  'view-tab': (c, command) => c.switchTo(jumpTab(order(c), command.arg)),
  'move-tab': async (c, command) => {
    const viewed = c.viewed();
    const to = moveIndex(order(c), viewed, command.arg === 'right' ? 1 : -1);
    if (to !== null && viewed) await c.control.request('reorder', { tabId: viewed, toIndex: to, expectedRev: c.control.rev });
  },
  name: async (c, command) => {
    const viewed = c.viewed();
    if (viewed) await c.control.request('rename', { tabId: viewed, name: command.arg, expectedRev: c.control.rev });
  },
  'edit-name': (c) => c.overlays.startRenaming(c.viewed()),
  close: (c) => closeTab(c, c.viewed()),
  sleep: onViewed((c, tabId) => c.control.request('sleep', { tabId })),
  restart: onViewed((c, tabId) => c.control.request('restart', { tabId, fresh: false, force: true })),
  control: onViewed((c, tabId) => c.control.request('claim', { tabId, force: true })),
  'copy-mode': (c) => c.copyMode.enter(0),
  'command-prompt': (c) => c.overlays.open({ kind: 'prompt', state: OPEN_PROMPT }),
  detach: (c) => c.detachClient(),
  quit: (c) => c.detachClient(),
  'quit-all': (c) => quitAll(c, false),
  hotkeys: (c) => c.overlays.open({ kind: 'hotkeys', state: openHotkeys(c.keymap) }),
  help: (c) => c.overlays.open({ kind: 'hotkeys', state: openHelp(c.keymap) }),
};

/** Each key's command, parsed once at load: a key runs exactly what its command typed at the
 * prompt runs. A declared command that does not parse is a programming error, caught here. */
export const ACTION_COMMANDS: Readonly<Record<ActionId, Command | null>> = Object.fromEntries(
  ACTIONS.map((a) => {
    if (a.command === null) return [a.id, null];
    const parsed = parseCommand(a.command);
    if (!parsed.ok) throw new Error(`the key action ${a.id} runs "${a.command}", which does not parse: ${parsed.error}`);
    return [a.id, parsed.command];
  }),
) as Record<ActionId, Command | null>;

/** A key's action: its command, or nothing for the keys the input router settles itself. */
export async function runAction(c: ClientOps, action: ActionId): Promise<void> {
  const command = ACTION_COMMANDS[action];
  if (command) await runCommand(c, command, 'That did not work.');
}

export async function runCommand(c: ClientOps, command: Command, failed = 'That command did not work.'): Promise<void> {
  const handler = COMMAND_HANDLERS[command.name] as (c: ClientOps, command: Command) => void | Promise<void>;
  try {
    await handler(c, command);
  } catch (err) {
    c.addNotice(err instanceof ServerError ? err.message : failed);
  }
}

/** Alt+A, +, /new-tab: in the launch directory, or where the viewed tab's shell is now
 * (`newTabInCurrentDir`, tmux's `new-window -c "#{pane_current_path}"`). */
async function newTab(c: ClientOps, extra: { name?: string }): Promise<void> {
  const here = c.newTabInCurrentDir ? { cwdOfTab: c.viewed() } : {};
  const { tabId } = await c.control.request('create', { ...c.createArgs(), ...here, ...extra });
  await c.viewTab(tabId);
}

/** Alt+W, /close, the chip menu's Close: a busy tab asks first (SPEC §8). */
export async function closeTab(c: ClientOps, tabId: string | null): Promise<void> {
  const tab = c.control.tabs.find((t) => t.id === tabId);
  if (!tab) return;
  const { busy } = await c.control.request('busy', { tabId: tab.id });
  if (busy) return c.overlays.open({ kind: 'confirm', state: { kind: 'closeTab', tabId: tab.id, name: tab.name } });
  await c.control.request('close', { tabId: tab.id, expectedRev: c.control.rev });
}

/** /quit-all: stop every tab (asking first when any is busy), then detach. */
export async function quitAll(c: ClientOps, confirmed: boolean): Promise<void> {
  if (!confirmed) {
    const busy = await Promise.all(c.control.tabs.map((t) => c.control.request('busy', { tabId: t.id })));
    if (busy.some((b) => b.busy)) return c.overlays.open({ kind: 'confirm', state: { kind: 'quitAll', count: c.control.tabs.length } });
  }
  for (const t of [...c.control.tabs]) await c.control.request('close', { tabId: t.id }).catch(() => undefined);
  c.finish(0, EVERY_TAB_STOPPED_MESSAGE);
}

/** A command a key in an overlay chose (Overlays.onCommand). */
export function runOverlayCommand(c: ClientOps, chosen: OverlayCommand): void {
  switch (chosen.kind) {
    case 'run':
      return void runCommand(c, chosen.command);
    case 'quitAll':
      return void quitAll(c, true);
    case 'closeTab':
      return void closeTab(c, chosen.tabId).catch(() => c.addNotice('The tab could not be closed.'));
  }
}
