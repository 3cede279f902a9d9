// Small decisions shared by the core and the server shell: a closed tab stays closed, and one agent
// session is held by one live tab (SPEC §9). Each takes only what it needs, so the shell can ask
// them with its own runtime records.

/** What a guard needs to know about the tab an event names; null when no live tab has that id. */
export interface TabPresence {
  closing: boolean;
  /** Put to sleep, or the host is stopping: its processes' ends are intended. */
  ending: boolean;
}

/** A late holder state or bridge report for a closed (or closing, sleeping) tab changes nothing. */
export function acceptsHolderReport(tab: TabPresence | null): boolean {
  return tab !== null && !tab.closing && !tab.ending;
}

/** A spawn that completes after its tab was retired, or after a newer start replaced its
 * incarnation, is killed before it is bound; otherwise it is bound. */
export function spawnOutcome(tab: TabPresence | null, expectedInc: string | null, inc: string): 'bind' | 'kill' {
  if (tab === null || tab.closing || tab.ending) return 'kill';
  return expectedInc === inc ? 'bind' : 'kill';
}

/** A close of a tab that is gone or already closing is a no-op, not an error. */
export function closeOutcome(tab: TabPresence | null): 'retire' | 'noop' {
  return tab === null || tab.closing ? 'noop' : 'retire';
}

/** The live tab holding `sessionId`, other than `except`; opening a held session focuses it. */
export function sessionHolder<T extends { id: string; sessionId: string | null; closing?: boolean }>(
  tabs: Iterable<T>,
  sessionId: string,
  except?: string,
): T | null {
  for (const t of tabs) if (t.id !== except && !t.closing && t.sessionId === sessionId) return t;
  return null;
}
