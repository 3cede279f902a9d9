// The keymap in effect: the declared defaults with the user's overrides from keybindings.json,
// checked so that every key names one action at most.
import { ACTIONS, isActionId, type ActionId } from './actions.js';
import { parseKey, type Keymap } from './keys.js';

export type KeymapErrorCode = 'unknownAction' | 'invalidKey' | 'conflict';

export interface KeymapError {
  code: KeymapErrorCode;
  /** One sentence, fit to show the user. */
  message: string;
}

/**
 * Overrides replace an action's default keys (a descriptor or a list; an empty list unbinds
 * it). Values come from a JSON file, so their types are checked here too.
 */
export function resolveKeymap(
  overrides: Record<string, string | string[]>,
): { keymap: Keymap } | { error: KeymapError } {
  for (const [id, value] of Object.entries(overrides)) {
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
    const descriptors = override === undefined ? action.keys : typeof override === 'string' ? [override] : override;
    const keys: string[] = [];
    for (const descriptor of descriptors) {
      const parsed = parseKey(descriptor);
      if (!parsed.ok) {
        return { error: { code: 'invalidKey', message: `Invalid key "${descriptor}" for ${action.id}: ${parsed.reason}.` } };
      }
      const holder = byKey.get(parsed.key);
      if (holder === action.id) continue;
      if (holder !== undefined) {
        return { error: { code: 'conflict', message: `Key ${parsed.key} is bound to both ${holder} and ${action.id}.` } };
      }
      byKey.set(parsed.key, action.id);
      keys.push(parsed.key);
    }
    byAction.set(action.id, keys);
  }
  return { keymap: { byKey, byAction } };
}
