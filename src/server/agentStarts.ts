// What a holder start runs (SPEC §9, §15): the agent's start or resume argv, decided by the one
// resume validator over the registry's records, and the child's environment and directory. The
// environment (and umask) is the creating client's, sent with the create request and kept in this
// server's memory for the tab's life, never in the registry or a log: every start of the tab by
// this server uses it. A server started later never had it, and gives its own.
import fs from 'node:fs';
import type { AgentSpec, Config } from '../config.js';
import type { Registry, TabRow } from '../store/registry.js';
import { validateResume, RESUME_RECORD_MAX_AGE_MS, type ResumeAuthority } from '../lifecycle/records.js';
import { SHELL_KIND, resumeArgv, startArgv } from '../lifecycle/agents.js';
import { sessionHolder, type CoreTab, type StartOptions } from './core/index.js';
import type { SpawnPlan } from './holderIO.js';
import { sanitizeChildEnv } from './childEnv.js';


type SessionClaim = { id: string; sessionId: string | null };

/** What the client that created a tab gave its child (SPEC §15 "The child"). */
type ChildStart = Pick<StartOptions, 'env' | 'umask'>;

export class AgentStarts {
  /** Each tab's ChildStart, from the start options that carried it, until the tab is gone. */
  private readonly childStarts = new Map<string, ChildStart>();

  constructor(
    private readonly config: Config,
    private readonly registry: Registry,
  ) {}

  spec(kind: string): AgentSpec | null {
    if (kind === SHELL_KIND) return null;
    return this.config.agents[kind] ?? null;
  }

  /** The one validator before every automatic resume (SPEC §9). */
  private verdict(tabId: string, claims: SessionClaim[]) {
    return validateResume(this.registry.listResumeRecordsOf(tabId), {
      tabId,
      now: Date.now(),
      maxAgeMs: RESUME_RECORD_MAX_AGE_MS,
      heldElsewhere: (sessionId) => sessionHolder(claims, sessionId, tabId) !== null,
    });
  }

  /** The record that resumes the tab's agent session and its argv, when a valid record allows
   * it: what a spawn resumes with, and what the holder keeps for its own restarts. */
  resumeAuthority(tab: CoreTab, claims: SessionClaim[]): ResumeAuthority | null {
    const spec = this.spec(tab.spec.kind);
    if (!spec?.resume) return null;
    const verdict = this.verdict(tab.id, claims);
    if (!verdict.ok) return null;
    const argv = resumeArgv(spec, tab.spec.command ?? this.config.tabCommand, verdict.record.sessionId);
    return argv ? { record: verdict.record, argv } : null;
  }

  /** Sleeping tabs that want to run but whose agent session's record expired (SPEC §9): the core
   * moves them to history instead of starting them. */
  expiredResumes(rows: TabRow[]): string[] {
    const claims = rows.map((r) => ({ id: r.id, sessionId: r.sessionId }));
    return rows
      .filter((r) => r.lifecycle === 'asleep' && r.desired === 'running' && r.sessionId && this.spec(r.kind)?.resume)
      .filter((r) => {
        const verdict = this.verdict(r.id, claims);
        return !verdict.ok && verdict.reason === 'expired';
      })
      .map((r) => r.id);
  }

  /** The environment and umask a start of the tab gives its child: the ones these options carry
   * (a create's), remembered for the tab's later starts, else the remembered ones. */
  private childStartOf(tabId: string, o: StartOptions): ChildStart {
    if (o.env) this.childStarts.set(tabId, { env: o.env, umask: o.umask });
    return this.childStarts.get(tabId) ?? {};
  }

  /** The tab is gone (closed, or moved to history): its environment goes with it. */
  forget(tabId: string): void {
    this.childStarts.delete(tabId);
  }

  /** A fresh start runs the agent's start argv (or the tab's command); a valid record resumes. */
  spawnPlan(tab: CoreTab, claims: SessionClaim[], o: StartOptions, holderEnv: NodeJS.ProcessEnv): SpawnPlan {
    const spec = this.spec(tab.spec.kind);
    const own = tab.spec.command ?? this.config.tabCommand;
    const base = spec && !tab.spec.command ? startArgv(spec, own) : own;
    const resume = this.resumeAuthority(tab, claims);
    const child = this.childStartOf(tab.id, o);
    return {
      // The tab's own start: what the holder runs whenever it does not resume (a fresh start, a
      // resume the validator no longer allows). Its first child resumes when `resume` is given.
      command: base,
      // A fresh start gives its holder nothing to resume the abandoned session with either.
      resume: o.fresh ? null : resume,
      agentKind: tab.spec.kind === SHELL_KIND ? null : tab.spec.kind,
      cwd: existingDir(tab.spec.cwd),
      env: sanitizeChildEnv(child.env ?? holderEnv),
      umask: child.umask ?? 0o022,
      cols: o.cols ?? 120,
      rows: o.rows ?? 40,
    };
  }
}

function existingDir(dir: string): string {
  try {
    if (fs.statSync(dir).isDirectory()) return dir;
  } catch {
    // Fall through to the home directory.
  }
  return process.env.HOME ?? '/';
}
