// Holder process entry: started detached by the server with its init (including its
// credentials) on an inherited pipe, fd 3, which is closed once the holder is ready.
import net from 'node:net';
import { Holder } from './holder.js';
import type { HolderInit } from '../protocol/holderInit.js';
import { createLogger, errorCode } from '../log.js';
import { crashDirBesideLogs } from '../paths.js';
import { installCrashHandlers, recordUnrequestedExits } from '../diag/crashHandlers.js';
import { startWatchdog, watchdogLimitsFromEnv } from '../diag/watchdog.js';
import { installTestFaults, terminateIOFor } from '../diag/testFaults.js';

/** The init message is small; anything larger is not from our server. */
const MAX_INIT_BYTES = 1024 * 1024;

export async function holderMain(): Promise<void> {
  process.umask(0o077);
  const pipe = new net.Socket({ fd: 3, readable: true, writable: true });
  pipe.on('error', () => {
    // The server that spawned this holder died before the ready line: a replacement adopts it.
  });
  const init = await readInit(pipe);
  const log = createLogger(init.logDir, `holder-${init.tabId}`);
  const diag = { role: log.role, incarnation: init.holderInc, crashDir: crashDirBesideLogs(init.logDir), log };
  installCrashHandlers(diag);
  recordUnrequestedExits(diag);
  installTestFaults(process.env, log.role, log);
  // In-thread stall measurement only: see src/diag/watchdog.ts for why holders run no worker.
  // It measures on the holder's status tick (1 s as well), so an idle holder wakes once a second.
  const watchdog = startWatchdog({ ctx: diag, blockedLoop: false, ownTimer: false, ...watchdogLimitsFromEnv(process.env) });
  process.on('SIGHUP', () => {
    // Detached from any terminal; a stray SIGHUP must not end the tab.
  });
  const holder = new Holder({ init, log, onDone: (code) => process.exit(code), terminateIO: terminateIOFor(process.env), onTick: () => watchdog.tick() });
  try {
    const ready = await holder.start();
    pipe.end(JSON.stringify({ ok: true, ...ready }) + '\n');
  } catch (err) {
    log.error('start-failed', { code: errorCode(err) });
    pipe.end(JSON.stringify({ ok: false, code: errorCode(err) }) + '\n');
    process.exit(1);
  }
}

function readInit(pipe: net.Socket): Promise<HolderInit & { logDir: string }> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      if (buf.length > MAX_INIT_BYTES) return reject(new Error('init too large'));
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      pipe.off('data', onData);
      try {
        resolve(JSON.parse(buf.slice(0, nl)));
      } catch (err) {
        reject(err);
      }
    };
    pipe.on('data', onData);
    pipe.once('end', () => reject(new Error('init pipe closed')));
  });
}
