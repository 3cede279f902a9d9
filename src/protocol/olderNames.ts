// The names an a1 from before issue 29 sends for what now has one name. A server keeps running
// across an upgrade until `a1 tabs host stop`, and holders outlive a server restart, so a new
// client may hear an older server and a new server an older holder. Their words are made
// today's where a frame is decoded (the older forms each schema declares, src/protocol/schema.ts)
// and where a reply is read (ServerClient), so nothing past the wire ever sees two names for one
// thing. Each form leaves today's messages as they are, and anything unexpected to its reader.
import type { Message, OlderForm } from './schema.js';
import type { HolderState, ListingEntry, TabInfo } from './messages.js';

/** An older peer's lifecycle and glyph names, and today's name for each. */
const RENAMED: Readonly<Record<string, string>> = {
  /** A sleeping tab's lifecycle and its glyph. */
  suspended: 'asleep',
  /** The glyph of an agent that asks its user something. */
  needsInput: 'needs-input',
};

/** Today's name for a lifecycle or glyph name an older peer may send. */
export function currentName(name: string): string {
  return Object.hasOwn(RENAMED, name) ? RENAMED[name] : name;
}

/** `value[field]` renamed when it is a string; the value itself when it is not an object. */
function withCurrent<T>(value: T, ...fields: string[]): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const field of fields) {
    const name = record[field];
    if (typeof name !== 'string' || currentName(name) === name) continue;
    out ??= { ...record };
    out[field] = currentName(name);
  }
  return (out ?? value) as T;
}

export function currentTabInfo(tab: TabInfo): TabInfo {
  return withCurrent(tab, 'lifecycle', 'glyph');
}

export function currentListingEntry(entry: ListingEntry): ListingEntry {
  return withCurrent(entry, 'status', 'glyph');
}

/** A holder's state: only its glyph was renamed (a holder never reports a sleeping lifecycle). */
export function currentHolderState(state: HolderState): HolderState {
  return withCurrent(state, 'glyph');
}

/** The list with each item made current; the same list when no item changed (or it is no list). */
function currentList<T>(list: T, each: (item: never) => unknown): T {
  if (!Array.isArray(list)) return list;
  const out = list.map((item) => each(item as never));
  return (out.some((item, i) => item !== list[i]) ? out : list) as T;
}

/** A form that makes `field` of a message current: the same message when nothing was renamed,
 * since today's peers send every message through here (a holder's state on each change). */
function fieldForm(field: string, current: (value: never) => unknown): OlderForm {
  return (m: Message) => {
    const value = current(m[field] as never);
    return value === m[field] ? m : { ...m, [field]: value };
  };
}

const oneTab = fieldForm('tab', currentTabInfo);
const tabList = fieldForm('tabs', (tabs: unknown) => currentList(tabs, currentTabInfo));

/** The control plane's messages that carry tabs (src/protocol/messages.ts controlSchema). */
export const CONTROL_OLDER_FORMS = { snapshot: tabList, tab: oneTab, tabStatus: oneTab, tabs: tabList } as const;

/** A holder's `state`, to the server and to clients alike (holderSchema, dataSchema). */
export const HOLDER_STATE_OLDER_FORMS = { state: fieldForm('state', currentHolderState) } as const;

/** A request's result in today's words: the `list` reply's rows (src/client/serverClient.ts
 * reads every reply through this). */
export function currentResult(op: string, result: unknown): unknown {
  if (op !== 'list' || typeof result !== 'object' || result === null) return result;
  const listing = result as { tabs?: unknown };
  const tabs = currentList(listing.tabs, currentListingEntry);
  return tabs === listing.tabs ? result : { ...listing, tabs };
}
