// How the server's answers look to clients: the core's refusals in words, a tab as the strip and
// the listing show it, and the past sessions the picker offers. Pure: plain data in, plain data out.
import type { ReplyError, TabInfo, HolderState, ListingEntry } from '../protocol/messages.js';
import type { PastSession } from '../protocol/requests.js';
import type { HistoryEntry } from '../store/registry.js';
import type { ResumeRecord } from '../lifecycle/records.js';
import { sessionSources } from '../lifecycle/sessionSources.js';
import type { ProcessRef } from '../lifecycle/retirement.js';
import type { CoreTab, Reply } from './core/index.js';
import { attentionOf } from '../status/model.js';
import { SHELL_KIND } from '../lifecycle/agents.js';

/** The picker lists at most this many past sessions. */
export const PAST_SESSIONS_LISTED = 50;

export const NOT_RESUMABLE = { error: { code: 'not-resumable', message: 'This tab cannot sleep: it has no agent session to resume.' } };

/** A refusal of `op` in one sentence. `unavailable` means the tab is not running, unless the
 * server itself is stopping. */
export function refusal(op: string, code: Extract<Reply, { ok: false }>['code'], ctx: { serving: boolean; tabsMax: number }): ReplyError {
  switch (code) {
    case 'conflict':
      return { code, message: 'The tabs changed meanwhile; nothing was changed.' };
    case 'no-tab':
      return { code, message: op === 'claim' ? 'That tab is not running.' : 'That tab no longer exists.' };
    case 'unavailable':
      if (!ctx.serving) return { code: 'unavailable', message: 'The a1 server is stopping.' };
      if (op === 'claim') return { code: 'no-tab', message: 'That tab is not running.' };
      return { code: 'holder-unavailable', message: 'The tab is not running.' };
    case 'write-failed':
      return { code, message: 'The registry could not be written; nothing was changed.' };
    case 'bad-index':
      return { code, message: 'That position is outside the strip.' };
    case 'not-resumable':
      return NOT_RESUMABLE.error;
    case 'tabs-max':
      return { code, message: `The tab limit of ${ctx.tabsMax} is reached; close a tab to open another.` };
  }
}

/** A tab as clients see it: the committed tab, with what its holder last said (`st`, when it is
 * the tab's current holder's). */
export function tabInfo(tab: CoreTab, st: HolderState | null): TabInfo {
  return {
    id: tab.id,
    name: tab.name,
    nameSource: tab.spec.nameSource,
    ord: tab.ord,
    cwd: tab.spec.cwd,
    lifecycle: tab.lifecycle,
    holderPid: tab.holder?.pid ?? null,
    childPid: st?.childPid ?? tab.child?.pid ?? null,
    exit: st?.exit ?? tab.lastExit,
    title: st?.title ?? '',
    kind: tab.spec.kind,
    sessionId: tab.sessionId,
    glyph: st?.glyph,
    agent: agentOf(tab, st),
  };
}

/** The agent a tab runs (its kind from its reports, else from its spec) and its last report. */
function agentOf(tab: CoreTab, st: HolderState | null): ListingEntry['agent'] {
  const kind = st?.agent?.kind ?? (tab.spec.kind === SHELL_KIND ? null : tab.spec.kind);
  return kind ? { kind, state: st?.agent?.state ?? null, sessionId: st?.agent?.sessionId ?? tab.sessionId } : null;
}

/** One row of `a1 tabs` (SPEC §15, listing format, plus the agent's status: issue 14); `currentDir`
 * is where its shell is now, null when unknown. */
export function listingEntry(tab: CoreTab, st: HolderState | null, currentDir: string | null): ListingEntry {
  return {
    id: tab.id,
    name: tab.name,
    status: tab.lifecycle,
    cwd: currentDir ?? tab.spec.cwd,
    startCwd: tab.spec.cwd,
    holderPid: tab.holder?.pid ?? null,
    childPid: st?.childPid ?? tab.child?.pid ?? null,
    agent: agentOf(tab, st),
    glyph: st?.glyph ?? null,
    attention: attentionOf(st?.glyph),
    title: st?.title ?? '',
    exit: st?.exit ?? tab.lastExit,
  };
}

/** Sessions no live tab holds (records of gone tabs, and history), newest first, one each. */
export function pastSessions(records: ResumeRecord[], history: HistoryEntry[], live: Pick<CoreTab, 'id' | 'sessionId'>[]): PastSession[] {
  const held = new Set(live.map((t) => t.sessionId).filter(Boolean));
  const liveIds = new Set(live.map((t) => t.id));
  const sources = sessionSources(records, history, (sessionId, tabId) => held.has(sessionId) || (tabId !== null && liveIds.has(tabId)));
  return [...sources.values()]
    .sort((a, b) => b.at - a.at)
    .slice(0, PAST_SESSIONS_LISTED)
    .map(({ sessionId, agent, name, cwd, state }) => ({ sessionId, agent, name, cwd, state }));
}

/** What a close that could not end some of its tab's processes says (every client, and
 * `a1 tabs stop`): the tab stays closed and its session is not resumable; those processes run on. */
export function unendedNotice(name: string, unended: readonly ProcessRef[]): string {
  const count = unended.length === 1 ? '1 of its processes' : `${unended.length} of its processes`;
  return `Tab "${name}" is closed, but ${count} could not be ended (pid ${unended.map((p) => p.pid).join(', ')}).`;
}
