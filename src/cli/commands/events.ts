// `a1 events [--json]`: the tabs' changes as they happen (issue 18), for scripts: a snapshot, then
// one event per change (src/status/scriptEvents.ts), until the server stops. It watches without
// attaching (the control plane's `watch`): never a controller, never keeps the server up, never
// starts one. Ends quietly when its reader goes (`| head -3`) or on SIGINT.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { ControlToClient, TabInfo } from '../../protocol/messages.js';
import { SHELL_KIND } from '../../lifecycle/agents.js';
import { scriptTab, type ScriptTab } from '../../status/scripting.js';
import { diffTabs, EMPTY_WATCH, eventLine, type WatchState } from '../../status/scriptEvents.js';
import { command } from './entry.js';
import { existingServer, JSON_OPTION, setup, UserError, type Common } from './shared.js';

/** A tab as the control plane tells it, as scripts read it. */
export function scriptTabOf(t: TabInfo, position: number): ScriptTab {
  const agent = t.agent !== undefined ? t.agent : t.kind && t.kind !== SHELL_KIND ? { kind: t.kind, state: null, sessionId: t.sessionId ?? null } : null;
  return scriptTab({ ...t, agent }, position);
}

async function watchEvents(argv: Common & { json?: boolean }): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  if (!server) throw new UserError(`No a1 server is running for profile "${profile}"; a1 events watches a running one and starts none.`);
  if (!server.has('watch')) {
    server.close();
    throw new UserError('This a1 server is an older version without events; "a1 tabs host stop" upgrades it.');
  }
  const write = (line: string): void => {
    if (argv.json) process.stdout.write(line);
    else process.stdout.write(humanLine(JSON.parse(line)));
  };
  return new Promise<number>((resolve) => {
    let infos: TabInfo[] = [];
    let state: WatchState = EMPTY_WATCH;
    let stopping = false;
    let done = false;
    const readerGone = watchReader(() => finish(0));
    function finish(code: number): void {
      if (done) return;
      done = true;
      readerGone?.kill();
      server!.close();
      resolve(code);
    }
    // A reader that left (`| head -3`) is no error: stop quietly, at the first write that finds it gone.
    process.stdout.on('error', () => finish(0));
    process.once('SIGINT', () => finish(0));
    process.once('SIGTERM', () => finish(0));
    const tell = (): void => {
      const rows = infos.map((t, i) => scriptTabOf(t, i + 1));
      const next = diffTabs(state, rows);
      state = next.state;
      const at = Date.now();
      for (const e of next.events) write(eventLine(e, at));
    };
    server.conn.onMessage((m: ControlToClient) => {
      switch (m.t) {
        case 'snapshot':
          infos = m.tabs;
          state = diffTabs(EMPTY_WATCH, infos.map((t, i) => scriptTabOf(t, i + 1))).state;
          return write(eventLine({ event: 'snapshot', server: { pid: m.serverPid, epoch: m.epoch }, tabs: [...state.tabs] }, Date.now()));
        case 'tab':
        case 'tabStatus':
          infos = [...infos.filter((t) => t.id !== m.tab.id), m.tab].sort((a, b) => a.ord - b.ord);
          return tell();
        case 'tabs':
          infos = m.tabs;
          return tell();
        case 'tabRemoved':
          infos = infos.filter((t) => t.id !== m.id);
          return tell();
        case 'hostStopping':
          stopping = true;
          return;
        default:
          return;
      }
    });
    server.conn.onClose(() => {
      if (done) return;
      write(eventLine({ event: 'server-stopped', reason: stopping ? 'host-stop' : 'gone' }, Date.now()));
      finish(0);
    });
    server.conn.send({ t: 'watch' });
  });
}

/** When stdout is a pipe, a `tail -f /dev/null` sharing it exits as soon as the pipe's reader
 * closes (GNU tail polls its output for that; Node has no way to ask without writing): so
 * `a1 events --json | head -1` ends at once, not at the next event. Null when not a pipe or no tail. */
function watchReader(gone: () => void): ChildProcess | null {
  try {
    if (!fs.fstatSync(1).isFIFO()) return null;
    const tail = spawn('tail', ['-f', '/dev/null'], { stdio: ['ignore', 'inherit', 'ignore'] });
    tail.on('error', () => {});
    tail.on('exit', gone);
    tail.unref();
    return tail;
  } catch {
    return null;
  }
}

/** An event in one line for a person. */
function humanLine(e: { event: string; tab?: ScriptTab; tabs?: ScriptTab[]; change?: string; changed?: string[]; reason?: string; from?: unknown }): string {
  const tab = e.tab ? ` ${e.tab.position} ${e.tab.name} (${e.tab.id}) ${e.tab.status}${e.tab.glyph && e.tab.glyph !== 'none' ? ` ${e.tab.glyph}` : ''}` : '';
  switch (e.event) {
    case 'snapshot':
      return `snapshot ${e.tabs?.length ?? 0} tabs\n` + (e.tabs ?? []).map((t) => `  ${t.position} ${t.name} (${t.id}) ${t.status}\n`).join('');
    case 'lifecycle':
      return `${e.change}${tab}\n`;
    case 'status':
      return `status${tab} [${e.changed?.join(', ')}]\n`;
    case 'server-stopped':
      return `server-stopped ${e.reason}\n`;
    default:
      return `${e.event}${tab}${e.from !== undefined ? ` (was ${String(e.from)})` : ''}\n`;
  }
}

export const eventsCommand = command<Common & { json?: boolean }>({
  path: ['events'],
  usage: 'a1 events [--json]',
  summary: 'follow the tabs: a snapshot, then every create, close, move, rename, status and lifecycle change, until the server stops (NDJSON with --json; never starts a server)',
  options: JSON_OPTION,
  examples: [["a1 events --json | jq -c 'select(.event == \"status\") | .tab.attention'", 'what each tab wants, as it changes']],
  run: watchEvents,
});
