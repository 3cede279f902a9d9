// `a1 sessions [--json]`: resumable agent sessions, read from the registry, so it works with or
// without a server and starts none.
import { command } from './entry.js';
import { formatTable, JSON_OPTION, setup, type Common } from './shared.js';

interface SessionRow {
  sessionId: string;
  agent: string;
  name: string;
  cwd: string;
  /** The live tab holding it, when one does. */
  tabId: string | null;
  /** The tab holding it sleeps. */
  asleep: boolean;
  /** live, quit or sleep (a resume record), or closed, reboot or expired (history). */
  state: string;
  at: number;
}

/** Resume records and history, newest first, one row per session. */
async function listSessions(argv: Common & { json?: boolean }): Promise<number> {
  const { paths } = setup(argv);
  const { Registry } = await import('../../store/registry.js');
  const reg = Registry.openReadOnly(paths.stateDir);
  const rows = new Map<string, SessionRow>();
  if (reg) {
    try {
      const liveTabs = new Map(reg.listTabs().map((t) => [t.id, t]));
      const records = reg.listResumeRecords().sort((a, b) => b.capturedAt - a.capturedAt);
      for (const r of records) {
        if (rows.has(r.sessionId)) continue;
        const tab = liveTabs.get(r.tabId);
        rows.set(r.sessionId, { sessionId: r.sessionId, agent: r.agentKind, name: tab?.name ?? r.name, cwd: r.cwd, tabId: tab ? tab.id : null, asleep: tab?.lifecycle === 'suspended', state: r.origin, at: r.capturedAt });
      }
      for (const h of reg.listHistory()) {
        if (!h.sessionId || rows.has(h.sessionId)) continue;
        rows.set(h.sessionId, { sessionId: h.sessionId, agent: h.agentKind, name: h.name, cwd: h.cwd, tabId: null, asleep: false, state: h.reason, at: h.at });
      }
    } finally {
      reg.close();
    }
  }
  const sessions = [...rows.values()].sort((a, b) => b.at - a.at);
  if (argv.json) {
    process.stdout.write(JSON.stringify({ sessions }) + '\n');
    return 0;
  }
  if (sessions.length === 0) {
    process.stdout.write('No resumable sessions.\n');
    return 0;
  }
  const table = [
    ['SESSION', 'AGENT', 'NAME', 'STATE', 'WHEN', 'CWD'],
    ...sessions.map((s) => [s.sessionId, s.agent, s.name, s.tabId ? `${s.asleep ? 'asleep' : 'open'} in ${s.tabId}` : s.state, new Date(s.at).toISOString().slice(0, 16).replace('T', ' '), s.cwd]),
  ];
  process.stdout.write(formatTable(table));
  return 0;
}

export const sessionsCommand = command<Common & { json?: boolean }>({
  path: ['sessions'],
  usage: 'a1 sessions [--json]',
  summary: 'resumable agent sessions: resume records and history (never starts a server)',
  options: JSON_OPTION,
  examples: [['a1 --session ID', 'reopen one of them (or focus the tab holding it)']],
  run: listSessions,
});
