// `a1 tabs host status [--json]`: the profile server's identity, counters and crash records;
// with no server, what the logs and crash records still say.
import { command } from './entry.js';
import { existingServer, JSON_OPTION, setup, type Common } from './shared.js';

async function hostStatus(argv: Common & { json?: boolean }): Promise<number> {
  const { paths, profile } = setup(argv);
  const { holderCounters, describeCrashes, CRASH_RECORDS_LISTED } = await import('../doctor.js');
  const { listCrashRecords } = await import('../../diag/crashRecord.js');
  const { addCounters, formatCounters } = await import('../../diag/counters.js');
  // Read without a server too: after a crash they are what there is to see.
  const crashes = listCrashRecords(paths.crashDir, CRASH_RECORDS_LISTED);
  const holders = holderCounters(paths.logsDir);
  const server = await existingServer(paths, profile);
  if (!server) {
    if (argv.json) process.stdout.write(JSON.stringify({ server: null, profile, counters: holders, crashes }) + '\n');
    else process.stdout.write(`No a1 server is running for profile "${profile}".\ncrashes  ${describeCrashes(crashes, paths.crashDir)}\n`);
    return 0;
  }
  try {
    const s = await server.request('hostStatus');
    // The server's counters since it started, plus what holders logged.
    const counters = s.counters ? addCounters(s.counters, holders) : holders;
    if (argv.json) {
      process.stdout.write(JSON.stringify({ server: s, profile, counters, crashes }) + '\n');
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
        ].join('\n') + '\n',
      );
    }
    return 0;
  } finally {
    server.close();
  }
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
  summary: 'server pid, version, epoch, uptime, tab count, socket and logs, counters (restarts, stalls, resyncs, rejected inputs) and crash records',
  options: JSON_OPTION,
  run: hostStatus,
});
