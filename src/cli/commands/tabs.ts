// `a1 tabs`: list tabs, from the server or, when none runs, from the registry; never starts one.
// `--json` prints the versioned ScriptTabs (src/status/scripting.ts).
import type { Listing, ListingEntry } from '../../protocol/messages.js';
import { SHELL_KIND } from '../../lifecycle/agents.js';
import { currentDirOf } from '../../proc.js';
import { SCRIPT_SCHEMA_VERSION, scriptTab, type ScriptTab, type ScriptTabs } from '../../status/scripting.js';
import { command } from './entry.js';
import { existingServer, formatTable, JSON_OPTION, setup, type Common } from './shared.js';

async function listTabs(argv: Common & { json?: boolean }): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  let listing: ScriptTabs;
  if (server) {
    try {
      const l = await server.request('list');
      listing = scriptListing(l);
    } finally {
      server.close();
    }
  } else {
    const { Registry } = await import('../../store/registry.js');
    const reg = Registry.openReadOnly(paths.stateDir);
    const rows = reg ? reg.listTabs() : [];
    reg?.close();
    // The registry knows the agent kind and session, not what the agent is doing now; a child that
    // outlived its server still says where its shell is.
    const tabs = rows.map((r, i) =>
      scriptTab(
        { id: r.id, name: r.name, lifecycle: r.lifecycle, cwd: (r.childPid && r.childStart ? currentDirOf({ pid: r.childPid, startTime: r.childStart }) : null) ?? r.cwd, startCwd: r.cwd,
          holderPid: r.holderPid, childPid: r.childPid, exit: r.lastExit,
          agent: r.kind === SHELL_KIND ? null : { kind: r.kind, state: null, sessionId: r.sessionId } },
        i + 1,
      ),
    );
    listing = { version: SCRIPT_SCHEMA_VERSION, server: null, tabs };
  }
  if (argv.json) {
    process.stdout.write(JSON.stringify(listing) + '\n');
    return 0;
  }
  if (!listing.server) process.stdout.write(`No a1 server is running for profile "${profile}"; showing the registry.\n`);
  if (listing.tabs.length === 0) {
    process.stdout.write('No tabs.\n');
    return 0;
  }
  const agentOf = (t: ScriptTab) => (t.agent ? [t.agent.kind, t.attention ?? t.agent.state].filter(Boolean).join(' ') : '-');
  const rows = [
    ['ID', 'NAME', 'STATUS', 'AGENT', 'CWD', 'HOLDER', 'CHILD'],
    ...listing.tabs.map((t) => [t.id, t.name, t.status, agentOf(t), t.cwd, String(t.holderPid ?? '-'), String(t.childPid ?? '-')]),
  ];
  process.stdout.write(formatTable(rows));
  return 0;
}

/** A running server's `list` answer as `a1 tabs --json` prints it (SPEC §15 "Listing"). */
export function scriptListing(l: Listing & { server: ScriptTabs['server'] }): ScriptTabs {
  return { version: SCRIPT_SCHEMA_VERSION, server: l.server, tabs: l.tabs.map((e, i) => scriptTab(factsOf(e), i + 1)) };
}

/** The server's row (in today's words: src/protocol/olderNames.ts) as the facts scriptTab reads. */
function factsOf(e: ListingEntry) {
  return { ...e, lifecycle: e.status };
}

export const tabsCommand = command<Common & { json?: boolean }>({
  path: ['tabs'],
  usage: 'a1 tabs [--json]',
  summary: 'list tabs in strip order: id, name, status, agent and its state, current directory, holder and child pid (never starts a server); --json: versioned, see Scripting',
  options: JSON_OPTION,
  run: listTabs,
});
