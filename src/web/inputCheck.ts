// A page's messages, checked before the web process acts on them (issue 20): a holder trusts the
// shape of what an admitted client sends, and a browser page is the one client a1 does not write
// itself. Only what the page sends is let through: the page wire's messages (src/web/protocol.ts),
// and as input text, named keys, pastes and unparsed sequences, each with the fields its type
// has. Pure.
import type { InputEvent, KeyName, Mods } from '../input/events.js';
import { KITTY_ONLY_KEYS } from '../input/kittyKeys.js';
import { ProtocolError } from '../protocol/errors.js';
import { readJsonMessage } from '../protocol/jsonWire.js';
import { pageToWebSchema, type PageToWeb } from './protocol.js';

/** More than a page sends in one message (a paste is one event). */
const EVENTS_MAX = 1024;
/** The largest grid a page may ask a tab to fit: beyond any screen, and the holder's bound too. */
export const PAGE_SIZE_MAX = 1000;

const LEGACY_KEYS: readonly KeyName[] = [
  'enter', 'tab', 'backspace', 'escape', 'space', 'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown',
  'insert', 'delete', 'begin', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12',
];
const KEY_NAMES: ReadonlySet<string> = new Set<string>([...LEGACY_KEYS, ...KITTY_ONLY_KEYS.map(([name]) => name)]);
const MOD_NAMES: ReadonlySet<string> = new Set(['shift', 'alt', 'ctrl', 'meta', 'hyper', 'kittyMeta', 'capsLock', 'numLock']);

type Loose = Record<string, unknown>;

function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validMods(v: unknown): v is Mods | undefined {
  if (v === undefined) return true;
  return isObject(v) && Object.entries(v).every(([k, x]) => MOD_NAMES.has(k) && typeof x === 'boolean');
}

/** The kitty protocol's details a key event may carry. */
function validDetail(e: Loose): boolean {
  const int = (x: unknown) => x === undefined || (Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 0x10ffff);
  return (e.type === undefined || e.type === 'repeat' || e.type === 'release') && int(e.code) && int(e.shifted) && int(e.base) && (e.keypad === undefined || typeof e.keypad === 'boolean');
}

function validEvent(e: unknown): e is InputEvent {
  if (!isObject(e)) return false;
  switch (e.k) {
    case 'text':
      return typeof e.s === 'string' && e.s.length > 0 && validMods(e.mods) && validDetail(e);
    case 'key':
      return typeof e.key === 'string' && KEY_NAMES.has(e.key) && validMods(e.mods) && validDetail(e);
    case 'paste':
      return typeof e.s === 'string';
    case 'raw':
      return typeof e.bytes === 'string';
    default:
      return false;
  }
}

/** The page's events when every one has a shape a holder accepts; null refuses the message whole. */
export function checkPageInput(events: unknown): InputEvent[] | null {
  if (!Array.isArray(events) || events.length === 0 || events.length > EVENTS_MAX) return null;
  return events.every(validEvent) ? (events as InputEvent[]) : null;
}

/** A text frame from a page as its message, or why the web process refuses it: the schema's
 * fields, input events a holder takes, and a size within bounds. Never quotes the frame (it may
 * carry what the person typed). */
export function readPageMessage(text: string): PageToWeb | ProtocolError {
  const m = readJsonMessage(pageToWebSchema, text);
  if (m instanceof ProtocolError) return m;
  if (m.t === 'input' && checkPageInput(m.events) === null) return new ProtocolError('bad-field', 'Field "events" of "input" must be input events a holder takes.');
  if (m.t === 'resize' && !(inSize(m.cols) && inSize(m.rows))) return new ProtocolError('bad-field', `Fields "cols" and "rows" of "resize" must be within 1 to ${PAGE_SIZE_MAX}.`);
  return m as PageToWeb;
}

function inSize(n: unknown): boolean {
  return typeof n === 'number' && n >= 1 && n <= PAGE_SIZE_MAX;
}
