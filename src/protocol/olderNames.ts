// The names an a1 from before issue 29 sends for what now has one name. A server keeps running
// across an upgrade until `a1 tabs host stop`, and holders outlive a server restart, so a new
// client may hear an older server and a new server an older holder. Their words are read as
// today's where they arrive, so nothing past the wire ever sees two names for one thing.
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

export function currentTabInfo(tab: TabInfo): TabInfo {
  return { ...tab, lifecycle: currentName(tab.lifecycle), ...(tab.glyph !== undefined ? { glyph: currentName(tab.glyph) } : {}) };
}

export function currentListingEntry(entry: ListingEntry): ListingEntry {
  return { ...entry, status: currentName(entry.status), glyph: entry.glyph === null ? null : currentName(entry.glyph) };
}

/** A holder's state: only its glyph was renamed (a holder never reports a sleeping lifecycle). */
export function currentHolderState(state: HolderState): HolderState {
  return { ...state, glyph: currentName(state.glyph) };
}
