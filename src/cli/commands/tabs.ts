// `a1 tabs`: list tabs, from the server or, when none runs, from the registry; never starts one.
import type { Listing } from '../../protocol/messages.js';
import { SHELL_KIND } from '../../lifecycle/agents.js';
import { command } from './entry.js';
import { existingServer, formatTable, JSON_OPTION, setup, type Common } from './shared.js';

async function listTabs(argv: Common & { json?: boolean }): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  let listing: Listing;
  if (server) {
    try {
      listing = await server.request('list');
    } finally {
      server.close();
    }
  } else {
    const { Registry } = await import('../../store/registry.js');
    const reg = Registry.openReadOnly(paths.stateDir);
    const rows = reg ? reg.listTabs() : [];
    reg?.close();
    listing = {
      server: null,
      // The registry knows the agent kind and session, not what the agent is doing now.
      tabs: rows.map((r) => ({
        id: r.id,
        name: r.name,
        status: r.lifecycle,
        cwd: r.cwd,
        holderPid: r.holderPid,
        childPid: r.childPid,
        agent: r.kind === SHELL_KIND ? null : { kind: r.kind, state: null, sessionId: r.sessionId },
        glyph: null,
        attention: null,
      })),
    };
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
  const agentOf = (t: Listing['tabs'][number]) => (t.agent ? [t.agent.kind, t.attention ?? t.agent.state].filter(Boolean).join(' ') : '-');
  const rows = [
    ['ID', 'NAME', 'STATUS', 'AGENT', 'CWD', 'HOLDER', 'CHILD'],
    ...listing.tabs.map((t) => [t.id, t.name, t.status, agentOf(t), t.cwd, String(t.holderPid ?? '-'), String(t.childPid ?? '-')]),
  ];
  process.stdout.write(formatTable(rows));
  return 0;
}

export const tabsCommand = command<Common & { json?: boolean }>({
  path: ['tabs'],
  usage: 'a1 tabs [--json]',
  summary: 'list tabs: id, name, status, agent and its state, cwd, holder and child pid (never starts a server)',
  options: JSON_OPTION,
  run: listTabs,
});
