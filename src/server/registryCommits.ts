// The core's commits carried out on the registry (SPEC §5): one transaction per commit, fenced by
// the registry. A close also plans and starts the ending of its tab's processes (SPEC §9).
import type { Registry, HistoryEntry } from '../store/registry.js';
import { FencedError } from '../store/errors.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import type { ProcessRef } from '../lifecycle/retirement.js';
import { SHELL_KIND } from '../lifecycle/agents.js';
import type { CommitResult, CoreState, Effect } from './core/index.js';
import type { HolderIO } from './holderIO.js';
import { durableToRow, patchToRow } from './rows.js';
import { unendedNotice } from './answers.js';

export interface RegistryCommitsDeps {
  registry: Registry;
  log: Logger;
  state(): CoreState;
  io: Pick<HolderIO, 'planFor' | 'endClosedTab'>;
  /** Runs a registry write outside a commit; a fenced one stops the server. */
  guarded(write: () => void): void;
  /** Tells every client (a close that could not end some processes). */
  notice(text: string): void;
}

export class RegistryCommits {
  /** Closes whose processes are still ending, for `close --wait`: each resolves with the processes
   * it could not end. */
  readonly closesEnding = new Map<string, Promise<ProcessRef[]>>();

  constructor(private readonly d: RegistryCommitsDeps) {}

  commit(fx: Extract<Effect, { t: 'commit' }>): CommitResult {
    const m = fx.mutation;
    const reg = this.d.registry;
    try {
      let rev = reg.revision;
      switch (m.t) {
        case 'startEpoch':
          // Committed by registry.startServer before the core booted; the fence says it is ours.
          if (!reg.isWriter) return 'fenced';
          break;
        case 'insertTab':
          rev = reg.insertTab(durableToRow(m.tab, Date.now())).revision;
          break;
        case 'retireTab':
          rev = m.reason === 'closed' ? this.retireClosed(m.id) : this.retireExpired(m.id);
          break;
        case 'rename':
          rev = reg.updateTab(m.id, { name: m.name, nameSource: 'user' }, { topology: true });
          break;
        case 'autoName':
          // Not a topology change (SPEC §15 counts a user's rename); never over a user's name.
          if (this.d.state().tabs[m.id]?.spec.nameSource !== 'user') reg.updateTab(m.id, { name: m.name, nameSource: 'auto' }, { topology: false });
          break;
        case 'reorder':
          rev = reg.reorderTabs(m.order);
          break;
        case 'update':
          reg.updateTab(m.id, patchToRow(m.patch), { topology: false });
          break;
      }
      if (rev !== fx.rev) this.d.log.warn('revision-mismatch', { count: rev - fx.rev });
      return 'ok';
    } catch (err) {
      if (err instanceof FencedError) return 'fenced';
      this.d.log.error('commit-failed', { op: m.t, code: errorCode(err) });
      return 'failed';
    }
  }

  /** Close (SPEC §9): the plan is made from one snapshot before anything is pruned; the tab, its
   * records and its history entry change in one transaction; then its processes end. */
  private retireClosed(tabId: string): number {
    const tab = this.d.state().tabs[tabId];
    const plan = this.d.io.planFor(tabId, 'user');
    const at = Date.now();
    const history: Omit<HistoryEntry, 'id'>[] = [];
    const seen = new Set<string>();
    for (const r of plan.history) {
      if (seen.has(r.sessionId)) continue;
      seen.add(r.sessionId);
      history.push({ tabId, name: tab.name, agentKind: r.agentKind, sessionId: r.sessionId, cwd: r.cwd, reason: 'closed', at, command: tab.spec.command });
    }
    // Revoking is not forgetting: an agent session with no record left still goes to history.
    if (tab.sessionId && !seen.has(tab.sessionId) && tab.spec.kind !== SHELL_KIND) {
      history.push({ tabId, name: tab.name, agentKind: tab.spec.kind, sessionId: tab.sessionId, cwd: tab.spec.cwd, reason: 'closed', at, command: tab.spec.command });
    }
    const rev = this.d.registry.retireTab(tabId, { revoke: plan.revoke, history });
    if (this.d.registry.getMeta('last_viewed_tab') === tabId) this.d.guarded(() => this.d.registry.setMeta('last_viewed_tab', ''));
    const ending = this.d.io
      .endClosedTab(tabId, plan)
      .then((unended) => {
        if (unended.length > 0) this.d.notice(unendedNotice(tab.name, unended));
        return unended;
      })
      .finally(() => this.closesEnding.delete(tabId));
    this.closesEnding.set(tabId, ending);
    return rev;
  }

  /** A tab whose session can no longer resume leaves, its identity kept in history so the user
   * can reopen it on purpose (SPEC §9). */
  private retireExpired(tabId: string): number {
    const tab = this.d.state().tabs[tabId];
    const records = this.d.registry.listResumeRecordsOf(tabId);
    const rev = this.d.registry.retireTab(tabId, {
      revoke: records.map((r) => r.id),
      history: [{ tabId, name: tab.name, agentKind: tab.spec.kind, sessionId: tab.sessionId, cwd: tab.spec.cwd, reason: 'expired', at: Date.now(), command: tab.spec.command }],
    });
    this.d.log.info('tab-to-history', { tab: tabId, reason: 'expired' });
    return rev;
  }
}
