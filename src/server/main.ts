// Server process entry (SPEC §15 "Starting and finding the server"): takes the writer lease
// or exits quietly, opens and verifies the registry, bumps the epoch, then serves. The
// launching client reads one status line on fd 3: ready, lost (another server won) or error.
import fs from 'node:fs';
import { resolvePaths, ensureProfileDirs } from '../paths.js';
import { loadConfig } from '../config/load.js';
import { loadOrCreateSecret, loadOrCreateClientToken } from '../security.js';
import { procStartTime, bootId } from '../proc.js';
import { Registry } from '../store/registry.js';
import { Server } from './server.js';
import { openStatusPipe } from '../spawnReady.js';
import { statusLine, type ServerStatusLine } from '../protocol/statusLine.js';
import { leaseAtStart } from './ownerCheck.js';
import { crashPoint, CRASH_AT_ENV } from '../crashPoints.js';
import { createLogger, errorCode, pruneLogs } from '../log.js';
import { installCrashHandlers, recordCrash, recordUnrequestedExits, type DiagContext } from '../diag/crashHandlers.js';
import { startWatchdog, watchdogLimitsFromEnv } from '../diag/watchdog.js';
import { installTestFaults, passStartBarrier, terminateIOFor } from '../diag/testFaults.js';
import { countersOf } from '../diag/counters.js';
import { CRASH_EXIT_CODE, pruneCrashRecords } from '../diag/crashRecord.js';

export async function serverMain(profile: string | undefined): Promise<void> {
  process.umask(0o077);
  const status = openStatusPipe();
  const report = (msg: ServerStatusLine) => {
    if (!status) return;
    try {
      status.end(statusLine(msg));
    } catch {
      // The launching client is gone; nothing to tell.
    }
  };
  let paths;
  try {
    paths = resolvePaths({ env: process.env, profile });
    ensureProfileDirs(paths);
  } catch (err) {
    report({ error: { code: errorCode(err), message: (err as Error).message } });
    process.exit(1);
  }
  const log = createLogger(paths.logsDir, 'server');
  const config = loadConfig(paths.configDir, process.env);
  // Defaults stand in for what is broken; the client that started this server shows the notice.
  if (config.problem) log.warn('config-invalid');
  await passStartBarrier(process.env);
  const taken = await leaseAtStart(paths.stateDir);
  if (taken.kind === 'lost') {
    // A verified live server holds the lease; the client connects to it.
    report({ lost: true });
    process.exit(0);
  }
  if (taken.kind === 'blocked') {
    log.error('recovery-blocked', { code: taken.error.code });
    report({ error: { code: taken.error.code, message: taken.error.message } });
    process.exit(1);
  }
  const { lease } = taken;
  let opened;
  try {
    opened = Registry.open({ stateDir: paths.stateDir });
  } catch (err) {
    log.error('registry-blocked', { code: errorCode(err) });
    report({ error: { code: errorCode(err), message: (err as Error).message } });
    process.exit(1);
  }
  const { registry, notices } = opened;
  // A1_TEST_BOOT_ID is a test-only override that simulates a reboot without one (documented in README).
  const currentBoot = process.env.A1_TEST_BOOT_ID || bootId();
  const { epoch, previousBootId } = registry.startServer(lease, { pid: process.pid, startTime: procStartTime(process.pid) ?? '', bootId: currentBoot });
  const rebooted = previousBootId !== null && previousBootId !== currentBoot;
  try {
    registry.backup();
  } catch (err) {
    log.warn('backup-failed', { code: errorCode(err) });
  }
  const secret = loadOrCreateSecret(paths.secretFile);
  const clientToken = loadOrCreateClientToken(paths.clientTokenFile);
  log.info('start', { epoch });
  const server = new Server({
    paths,
    config: config.config,
    registry,
    secret,
    clientToken,
    epoch,
    entry: fs.realpathSync(process.argv[1]),
    log,
    notices,
    holderEnv: withoutCrashPoint(process.env),
    rebooted,
    testBindDelayMs: Number(process.env.A1_TEST_BIND_DELAY_MS) || undefined,
    testUnresponsiveMs: Number(process.env.A1_TEST_UNRESPONSIVE_MS) || undefined,
    testLacksOps: process.env.A1_TEST_SERVER_LACKS?.split(',').filter(Boolean),
    terminateIO: terminateIOFor(process.env),
    testEarlierSignalsLost: process.env.A1_TEST_EARLIER_SIGNALS_LOST === '1',
    diag: () => ({ counters: countersOf(log.counts()) }),
    onInvariantViolation: (found) => {
      log.error('invariant-violation', { kind: found });
      recordCrash(diag, 'invariant-violation', { kind: found });
      process.exit(CRASH_EXIT_CODE);
    },
    onExit: (code) => {
      log.info('exit', { code });
      registry.close();
      lease.release();
      process.exit(code);
    },
  });
  // The epoch names this server's incarnation in its crash records.
  const diag: DiagContext = { role: 'server', incarnation: String(epoch), crashDir: paths.crashDir, log };
  installCrashHandlers(diag);
  recordUnrequestedExits(diag);
  installTestFaults(process.env, 'server', log);
  // Records are pruned as they are written; a quiet profile's old ones go at a start.
  pruneLogs(paths.logsDir, Date.now());
  pruneCrashRecords(paths.crashDir, Date.now());
  process.on('SIGHUP', () => {
    // Detached; a stray SIGHUP must not end the server.
  });
  process.on('SIGTERM', () => server.shutdown(0));
  try {
    await server.start();
  } catch (err) {
    log.error('start-failed', { code: errorCode(err) });
    report({ error: { code: errorCode(err), message: 'The a1 server could not start.' } });
    process.exit(1);
  }
  // Started once serving: the start path's own synchronous work (opening and verifying the
  // registry) is not a stall.
  startWatchdog({ ctx: diag, blockedLoop: true, ...watchdogLimitsFromEnv(process.env) });
  crashPoint('server.ready.before');
  report({ ready: true, pid: process.pid, epoch });
  crashPoint('server.ready.after');
}

/** The crash point is for this server only: holders, and servers they start, run without it. */
function withoutCrashPoint(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [CRASH_AT_ENV]: _crash, ...rest } = env;
  return rest;
}

