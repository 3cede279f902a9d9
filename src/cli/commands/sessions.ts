// `a1 sessions [--json]`: resumable agent sessions, read from the registry, so it works with or
// without a server and starts none.
import { command } from './entry.js';
import { formatTable, JSON_OPTION, setup, type Common } from './shared.js';
import { sessionRows, type SessionRow } from '../sessionRows.js';
import { SCRIPT_SCHEMA_VERSION, type ScriptSessions } from '../../status/scripting.js';

/** Resume records and history, newest first, one row per session. */
async function listSessions(argv: Common & { json?: boolean }): Promise<number> {
  const { paths } = setup(argv);
  const { Registry } = await import('../../store/registry.js');
  const reg = Registry.openReadOnly(paths.stateDir);
  let sessions: SessionRow[] = [];
  if (reg) {
    try {
      sessions = sessionRows(reg.listResumeRecords(), reg.listHistory(), reg.listTabs());
    } finally {
      reg.close();
    }
  }
  if (argv.json) {
    const out: ScriptSessions = { version: SCRIPT_SCHEMA_VERSION, sessions };
    process.stdout.write(JSON.stringify(out) + '\n');
    return 0;
  }
  if (sessions.length === 0) {
    process.stdout.write('No resumable sessions.\n');
    return 0;
  }
  const table = [
    ['SESSION', 'AGENT', 'NAME', 'STATE', 'WHEN', 'CWD'],
    ...sessions.map((s) => [s.sessionId, s.agent, s.name, s.tabId ? `${s.state} in ${s.tabId}` : s.state, new Date(s.at).toISOString().slice(0, 16).replace('T', ' '), s.cwd]),
  ];
  process.stdout.write(formatTable(table));
  return 0;
}

export const sessionsCommand = command<Common & { json?: boolean }>({
  path: ['sessions'],
  usage: 'a1 sessions [--json]',
  summary: 'agent sessions and their state: open, asleep, resumable, closed, reboot, expired (never starts a server); --json: versioned, see Scripting',
  options: JSON_OPTION,
  examples: [['a1 --session ID', 'reopen one of them (or focus the tab holding it)']],
  run: listSessions,
});
