// `a1 tabs host status [--json]`: the profile server's identity, counters and crash records;
// with no server, what the logs and crash records still say.
import { command } from './entry.js';
import { existingServer, JSON_OPTION, setup, type Common } from './shared.js';

async function hostStatus(argv: Common & { json?: boolean }): Promise<number> {
  const { paths, profile } = setup(argv);
  const { holderCounters, describeCrashes, CRASH_RECORDS_LISTED } = await import('../doctor.js');
  const { listCrashRecords, isProgramExit } = await import('../../diag/crashRecord.js');
  const { addCounters, formatCounters } = await import('../../diag/counters.js');
  // Read without a server too: after a crash they are what there is to see.
  // a1's own crashes apart from the records of tabs' programs that ended by themselves.
  const records = listCrashRecords(paths.crashDir, CRASH_RECORDS_LISTED);
  const crashes = records.filter((r) => !isProgramExit(r));
  const programExits = records.filter(isProgramExit);
  const holders = holderCounters(paths.logsDir);
  const server = await existingServer(paths, profile);
  if (!server) {
    if (argv.json) process.stdout.write(JSON.stringify({ server: null, profile, counters: holders, crashes, programExits }) + '\n');
    else process.stdout.write(`No a1 server is running for profile "${profile}".\ncrashes  ${describeCrashes(crashes, paths.crashDir)}\nexits    ${describeExits(programExits, CRASH_RECORDS_LISTED)}\n`);
    return 0;
  }
  try {
    const { counters: own, ...s } = await server.request('hostStatus');
    // One figure per counter: the server's since it started, plus what holders logged.
    const counters = own ? addCounters(own, holders) : holders;
    if (argv.json) {
      process.stdout.write(JSON.stringify({ server: s, profile, counters, crashes, programExits }) + '\n');
    } else {
      const uptime = Math.round(Number(s.uptimeMs) / 1000);
      process.stdout.write(
        [
          `server   pid ${s.pid} · version ${s.version} · epoch ${s.epoch} · up ${uptime}s`,
          `profile  ${profile} · ${s.tabCount} ${s.tabCount === 1 ? 'tab' : 'tabs'} · ${s.clients} attached`,
          `socket   ${s.socket}`,
          `logs     ${s.logs}`,
          `counters ${formatCounters(counters)}`,
          `orphans  ${describeOrphans(s.orphans)}`,
          `crashes  ${describeCrashes(crashes, paths.crashDir)}`,
          `exits    ${describeExits(programExits, CRASH_RECORDS_LISTED)}`,
        ].join('\n') + '\n',
      );
    }
    return 0;
  } finally {
    server.close();
  }
}

/** Tabs' programs that ended by themselves (a non-zero status, a signal): theirs, not a1's crashes. */
function describeExits(exits: readonly { at: string; detail: Record<string, unknown> }[], listed: number): string {
  if (exits.length === 0) return 'none';
  const d = exits[0].detail;
  const how = d.signal ? `signal ${String(d.signal)}` : `status ${String(d.exitCode)}`;
  return `${exits.length}${exits.length >= listed ? '+' : ''} tab programs ended by themselves; newest ${exits[0].at.slice(0, 19).replace('T', ' ')} with ${how}`;
}

/** Holders of the profile that no tab owns (SPEC §10): how many, and how long the oldest has been one. */
function describeOrphans(o: { count: number; oldestAgeMs: number | null } | undefined): string {
  if (!o || o.count === 0) return 'none';
  const age = o.oldestAgeMs === null ? '' : ` · oldest ${Math.round(o.oldestAgeMs / 1000)}s`;
  return `${o.count} ${o.count === 1 ? 'holder' : 'holders'} no tab owns${age} (retired after a short grace)`;
}

export const hostStatusCommand = command<Common & { json?: boolean }>({
  path: ['tabs', 'host', 'status'],
  usage: 'a1 tabs host status [--json]',
  summary: 'server pid, version, epoch, uptime, tab count, socket and logs, counters (holder deaths, program and forced restarts, stalls, resyncs, rejected inputs, degraded), crash records of a1 apart from tab programs that ended by themselves',
  options: JSON_OPTION,
  run: hostStatus,
});
