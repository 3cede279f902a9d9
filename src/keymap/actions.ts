// Every keymap action, declared once: its id, what it does and its default keys. Help
// (/hotkeys), validation of keybindings.json and the default keymap derive from this list.

export interface ActionSpec {
  readonly id: string;
  readonly description: string;
  /** Key descriptors (see keys.ts); an empty list leaves the action unbound. */
  readonly keys: readonly string[];
}

export const ACTIONS = [
  { id: 'newTab', description: 'Open a new tab', keys: ['alt+a'] },
  { id: 'nextTab', description: 'View the next tab (wraps)', keys: ['alt+.'] },
  { id: 'prevTab', description: 'View the previous tab (wraps)', keys: ['alt+comma'] },
  { id: 'jump1', description: 'View tab 1', keys: ['alt+1'] },
  { id: 'jump2', description: 'View tab 2', keys: ['alt+2'] },
  { id: 'jump3', description: 'View tab 3', keys: ['alt+3'] },
  { id: 'jump4', description: 'View tab 4', keys: ['alt+4'] },
  { id: 'jump5', description: 'View tab 5', keys: ['alt+5'] },
  { id: 'jump6', description: 'View tab 6', keys: ['alt+6'] },
  { id: 'jump7', description: 'View tab 7', keys: ['alt+7'] },
  { id: 'jump8', description: 'View tab 8', keys: ['alt+8'] },
  { id: 'jump9', description: 'View tab 9', keys: ['alt+9'] },
  { id: 'jump10', description: 'View tab 10', keys: ['alt+0'] },
  { id: 'moveTabRight', description: 'Move the viewed tab right', keys: ['alt+>'] },
  { id: 'moveTabLeft', description: 'Move the viewed tab left', keys: ['alt+<'] },
  { id: 'rename', description: 'Rename the viewed tab', keys: ['f2'] },
  { id: 'closeTab', description: 'Close the viewed tab', keys: ['alt+w'] },
  { id: 'tabsPicker', description: 'Open the tabs picker', keys: ['alt+t'] },
  { id: 'commandPrompt', description: 'Open the command prompt', keys: ['alt+/'] },
  { id: 'takeControl', description: 'Take control of a tab another client controls', keys: ['alt+enter'] },
  { id: 'copyMode', description: 'Enter copy mode (q or Esc returns to live)', keys: ['alt+c'] },
  { id: 'detach', description: 'Detach this client; nothing reaches the tab', keys: ['alt+e'] },
  {
    id: 'detachTwice',
    description: 'Detach this client (press twice quickly; the first press reaches the tab)',
    keys: ['ctrl+c'],
  },
] as const satisfies readonly ActionSpec[];

export type ActionId = (typeof ACTIONS)[number]['id'];

const ACTION_IDS: ReadonlySet<string> = new Set(ACTIONS.map((a) => a.id));

export function isActionId(id: string): id is ActionId {
  return ACTION_IDS.has(id);
}
