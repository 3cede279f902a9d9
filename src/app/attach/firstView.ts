// The attach client's start (SPEC §8): which tab it views first, and what a refused first view
// means. Decided here, from the options and the error, so run() only carries it out.
import { ServerError } from '../../client/serverClient.js';

export type FirstTab =
  /** `a1 attach TAB`: that tab, with nothing to ask first. */
  | { kind: 'view'; tabId: string }
  /** `a1 --session`: the server opens (or finds) the tab of that agent session. */
  | { kind: 'openSession'; session: { sessionId: string; agent: string | null; cwd: string | null } }
  /** Bare `a1`: the last viewed tab, or a new one. */
  | { kind: 'ensureTab' };

export function firstTab(opts: { viewTab?: string; openSession?: { sessionId: string; agent: string | null; cwd: string | null } }): FirstTab {
  if (opts.viewTab) return { kind: 'view', tabId: opts.viewTab };
  if (opts.openSession) return { kind: 'openSession', session: opts.openSession };
  return { kind: 'ensureTab' };
}

/** What the client does when the first tab's view is refused: leave, or stay with a notice. */
export type FirstViewRefusal = { kind: 'leave' } | { kind: 'stay'; notice: string };

export function onFirstViewRefused(err: unknown): FirstViewRefusal {
  // A tab with no process to show (failed, its start refused) must not stand between the user
  // and the other tabs: the strip stays, r/f/Alt+W and switching work, and the view comes once
  // the tab runs again.
  if (!(err instanceof ServerError) || err.code !== 'holder-unavailable') return { kind: 'leave' };
  return { kind: 'stay', notice: `${err.message} r retries, f starts fresh, Alt+W closes it.` };
}
