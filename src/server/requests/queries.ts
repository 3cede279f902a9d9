// The queries, answered from the core's state without it: `sessions` (the picker), `busy` (before
// a close, SPEC §8), `list` (`a1 tabs`) and `hostStatus`. One file: each is a few lines.
import { currentDirOf, isSameProcess, foregroundGroupOf } from '../../proc.js';
import { isBusyGlyph } from '../../status/model.js';
import { VERSION } from '../../version.js';
import { listingEntry, PAST_SESSIONS_LISTED, pastSessions } from '../answers.js';
import { orderedIds } from '../core/index.js';
import type { CoreTab } from '../core/types.js';
import type { RequestContext, RequestHandler } from './context.js';

export const sessions: RequestHandler<'sessions'> = {
  take: (ctx) => ({ result: { sessions: pastSessions(ctx.registry.listResumeRecords(), ctx.registry.listHistory(PAST_SESSIONS_LISTED), Object.values(ctx.state().tabs)) } }),
};

/** Whether closing the tab would stop work (SPEC §8): its agent is working or waits for an
 * answer, or a foreground job other than that agent runs in its PTY (the terminal's foreground
 * group is neither the child's own nor the reporting agent's). An agent that reports status is
 * busy by its status alone, whether it is the tab's child or a job its shell runs: an idle Claude
 * asks nothing in either kind of tab. */
function isBusy(ctx: RequestContext, tabId: string): boolean {
  const st = ctx.state().tabs[tabId] ? ctx.holderState(tabId) : null;
  if (!st?.childPid || !st.childStart || !isSameProcess({ pid: st.childPid, startTime: st.childStart })) return false;
  if (isBusyGlyph(st.glyph)) return true;
  const fg = foregroundGroupOf(st.childPid);
  return fg !== null && fg > 0 && fg !== st.childPid && !(st.agent?.groups ?? []).includes(fg);
}

export const busy: RequestHandler<'busy'> = {
  take: (ctx, a) => ({ result: { busy: isBusy(ctx, String(a.tabId)) } }),
};

/** Where the tab's shell is now (src/proc.ts currentDirOf), null when unknown. */
export function tabCurrentDir(ctx: RequestContext, tab: CoreTab): string | null {
  const st = ctx.liveState(tab);
  return st?.childPid && st.childStart ? currentDirOf({ pid: st.childPid, startTime: st.childStart }) : null;
}

export const list: RequestHandler<'list'> = {
  take: (ctx) => {
    const tabs = ctx.state().tabs;
    const listing = orderedIds(tabs).map((id) => listingEntry(tabs[id], ctx.liveState(tabs[id]), tabCurrentDir(ctx, tabs[id])));
    return { result: { server: { pid: process.pid, epoch: ctx.epoch }, tabs: listing } };
  },
};

export const hostStatus: RequestHandler<'hostStatus'> = {
  take: (ctx) => ({
    result: {
      pid: process.pid,
      version: VERSION,
      epoch: ctx.epoch,
      uptimeMs: Date.now() - ctx.startedAt,
      tabCount: Object.keys(ctx.state().tabs).length,
      clients: ctx.attachedClients(),
      profile: ctx.paths.profile,
      socket: ctx.paths.serverSock,
      logs: ctx.paths.logsDir,
      crashRecords: ctx.paths.crashDir,
      registry: ctx.paths.registryFile,
      orphans: ctx.orphanReport(),
      ...ctx.diag?.(),
    },
  }),
};
