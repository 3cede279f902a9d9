// Every keymap action, declared once: its id, what it does, its default keys and the prompt
// command it runs (as tmux binds keys to commands, so a key and its command cannot drift apart).
// Help (/hotkeys), validation of keybindings.json, the default keymap and docs/keys.md derive
// from this list. The seed's keys stay as the seed chose them (their conflicts with the programs of
// keymap/keyTable.ts are listed in docs/keys.md); a1's own additions use keys none of those
// programs uses, which test/keymap/keyTable.test.ts checks.

export interface ActionSpec {
  readonly id: string;
  readonly description: string;
  /** Key descriptors (see keys.ts); an empty list leaves the action unbound. */
  readonly keys: readonly string[];
  /** 'seed': a key the product's seed fixed; 'a1': one of a1's own, free of the key table. */
  readonly origin: 'seed' | 'a1';
  /** With a `prefix` in keybindings.json, the action's key after the prefix (tmux's where tmux
   * has one); absent, the action keeps its keys. 'prefix' stands for the prefix key itself. */
  readonly afterPrefix?: string;
  /** The command prompt's line this key runs (app/overlays/commands.ts); null for the keys the
   * input router settles itself, which run no command. */
  readonly command: string | null;
}

export const ACTIONS = [
  { id: 'newTab', description: 'Open a new tab', keys: ['alt+a'], origin: 'seed', afterPrefix: 'c', command: 'new-tab' },
  { id: 'nextTab', description: 'View the next tab (wraps)', keys: ['alt+.'], origin: 'seed', afterPrefix: 'n', command: 'next-tab' },
  { id: 'prevTab', description: 'View the previous tab (wraps)', keys: ['alt+comma'], origin: 'seed', afterPrefix: 'p', command: 'previous-tab' },
  { id: 'jump1', description: 'View tab 1', keys: ['alt+1'], origin: 'seed', afterPrefix: '1', command: 'view-tab 1' },
  { id: 'jump2', description: 'View tab 2', keys: ['alt+2'], origin: 'seed', afterPrefix: '2', command: 'view-tab 2' },
  { id: 'jump3', description: 'View tab 3', keys: ['alt+3'], origin: 'seed', afterPrefix: '3', command: 'view-tab 3' },
  { id: 'jump4', description: 'View tab 4', keys: ['alt+4'], origin: 'seed', afterPrefix: '4', command: 'view-tab 4' },
  { id: 'jump5', description: 'View tab 5', keys: ['alt+5'], origin: 'seed', afterPrefix: '5', command: 'view-tab 5' },
  { id: 'jump6', description: 'View tab 6', keys: ['alt+6'], origin: 'seed', afterPrefix: '6', command: 'view-tab 6' },
  { id: 'jump7', description: 'View tab 7', keys: ['alt+7'], origin: 'seed', afterPrefix: '7', command: 'view-tab 7' },
  { id: 'jump8', description: 'View tab 8', keys: ['alt+8'], origin: 'seed', afterPrefix: '8', command: 'view-tab 8' },
  { id: 'jump9', description: 'View tab 9', keys: ['alt+9'], origin: 'seed', afterPrefix: '9', command: 'view-tab 9' },
  { id: 'jump10', description: 'View tab 10', keys: ['alt+0'], origin: 'seed', afterPrefix: '0', command: 'view-tab 10' },
  { id: 'moveTabRight', description: 'Move the viewed tab right', keys: ['alt+>'], origin: 'seed', afterPrefix: '>', command: 'move-tab right' },
  { id: 'moveTabLeft', description: 'Move the viewed tab left', keys: ['alt+<'], origin: 'seed', afterPrefix: '<', command: 'move-tab left' },
  { id: 'rename', description: 'Rename the viewed tab', keys: ['f2'], origin: 'seed', afterPrefix: 'comma', command: 'edit-name' },
  { id: 'closeTab', description: 'Close the viewed tab', keys: ['alt+w'], origin: 'seed', afterPrefix: '&', command: 'close' },
  { id: 'tabsPicker', description: 'Open the tabs picker', keys: ['alt+j'], origin: 'a1', afterPrefix: 'w', command: 'tabs' },
  { id: 'commandPrompt', description: 'Open the command prompt', keys: ['alt+;'], origin: 'a1', afterPrefix: ':', command: 'command-prompt' },
  { id: 'takeControl', description: 'Take control of a tab another client controls', keys: ['alt+i'], origin: 'a1', afterPrefix: 'i', command: 'control' },
  { id: 'copyMode', description: 'Enter copy mode (q or Esc returns to live)', keys: ['alt+k'], origin: 'a1', afterPrefix: '[', command: 'copy-mode' },
  { id: 'detach', description: 'Detach this client; nothing reaches the tab', keys: ['alt+e'], origin: 'a1', afterPrefix: 'd', command: 'detach' },
  {
    id: 'sendPrefix',
    description: 'Send the prefix key itself to the tab (with a prefix set)',
    keys: [],
    origin: 'a1',
    afterPrefix: 'prefix',
    command: null,
  },
  {
    id: 'detachTwice',
    description: 'Detach this client (press twice quickly; the first press reaches the tab)',
    keys: ['ctrl+c'],
    origin: 'seed',
    command: null,
  },
] as const satisfies readonly ActionSpec[];

export type ActionId = (typeof ACTIONS)[number]['id'];

const ACTION_IDS: ReadonlySet<string> = new Set(ACTIONS.map((a) => a.id));

export function isActionId(id: string): id is ActionId {
  return ACTION_IDS.has(id);
}
