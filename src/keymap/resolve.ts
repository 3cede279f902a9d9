// The keymap in effect: the declared defaults with the user's overrides from keybindings.json,
// checked so that every key or chord names one action at most and no binding begins another.
import { ACTIONS, isActionId, type ActionId } from './actions.js';
import { parseChord, parseKey, type Keymap } from './keys.js';

export type KeymapErrorCode = 'unknownAction' | 'invalidKey' | 'conflict';

export interface KeymapError {
  code: KeymapErrorCode;
  /** One sentence, fit to show the user. */
  message: string;
  /** For a conflict, the two actions that claim the key. */
  actions?: readonly [ActionId, ActionId];
}

/** The keybindings.json entry that is a setting, not an action. */
export const PREFIX_SETTING = 'prefix';

/**
 * Overrides replace an action's default keys (a key, a chord such as "ctrl+b d", or a list; an
 * empty list unbinds it). `prefix` (one key) makes every action without an override its prefix
 * key then the action's `afterPrefix` key, as tmux does; actions without one keep their keys.
 * Values come from a JSON file, so their types are checked here too.
 */
export function resolveKeymap(
  overrides: Record<string, string | string[]>,
): { keymap: Keymap } | { error: KeymapError } {
  let prefix: string | null = null;
  for (const [id, value] of Object.entries(overrides)) {
    if (id === PREFIX_SETTING) {
      const parsed = typeof value === 'string' ? parseKey(value) : null;
      if (!parsed?.ok) {
        return { error: { code: 'invalidKey', message: `The prefix must be one key, such as "ctrl+b"${parsed ? `: ${parsed.reason}` : ''}.` } };
      }
      prefix = parsed.key;
      continue;
    }
    if (!isActionId(id)) return { error: { code: 'unknownAction', message: `Unknown action "${id}" in key bindings.` } };
    const valid = typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (!valid) {
      return { error: { code: 'invalidKey', message: `The binding for ${id} must be a key or a list of keys.` } };
    }
  }
  const byKey = new Map<string, ActionId>();
  const byAction = new Map<ActionId, readonly string[]>();
  for (const action of ACTIONS) {
    const override = Object.hasOwn(overrides, action.id) ? overrides[action.id] : undefined;
    const descriptors = override !== undefined ? (typeof override === 'string' ? [override] : override) : defaultsFor(action, prefix);
    const keys: string[] = [];
    for (const descriptor of descriptors) {
      const parsed = parseChord(descriptor);
      if (!parsed.ok) {
        return { error: { code: 'invalidKey', message: `Invalid key "${descriptor}" for ${action.id}: ${parsed.reason}.` } };
      }
      const holder = byKey.get(parsed.key);
      if (holder === action.id) continue;
      if (holder !== undefined) {
        return { error: { code: 'conflict', message: `Key ${parsed.key} is bound to both ${holder} and ${action.id}.`, actions: [holder, action.id] } };
      }
      byKey.set(parsed.key, action.id);
      keys.push(parsed.key);
    }
    byAction.set(action.id, keys);
  }
  const chordStarts = new Set<string>();
  for (const chord of byKey.keys()) {
    const keys = chord.split(' ');
    for (let n = 1; n < keys.length; n++) chordStarts.add(keys.slice(0, n).join(' '));
  }
  for (const start of chordStarts) {
    const holder = byKey.get(start);
    if (holder !== undefined) {
      const longer = [...byKey.entries()].find(([chord]) => chord.startsWith(`${start} `))!;
      return {
        error: { code: 'conflict', message: `Key ${start} is bound to ${holder} and also begins ${longer[0]} of ${longer[1]}.`, actions: [holder, longer[1]] },
      };
    }
  }
  return { keymap: { byKey, byAction, chordStarts, prefix } };
}

function defaultsFor(action: (typeof ACTIONS)[number], prefix: string | null): readonly string[] {
  if (prefix === null || !('afterPrefix' in action)) return action.keys;
  return [`${prefix} ${action.afterPrefix === 'prefix' ? prefix : action.afterPrefix}`];
}
