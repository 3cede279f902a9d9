// Holder process entry: started detached by the server with its init (including its
// credentials) on an inherited pipe, fd 3, which is closed once the holder is ready.
import net from 'node:net';
import { Holder } from './holder.js';
import { MAX_INIT_BYTES, parseHolderInit, type HolderInit } from '../protocol/holderInit.js';
import { ProtocolError } from '../protocol/errors.js';
import { statusLine } from '../protocol/statusLine.js';
import { createLogger, errorCode } from '../log.js';
import { crashDirBesideLogs } from '../paths.js';
import { installCrashHandlers, recordUnrequestedExits } from '../diag/crashHandlers.js';
import { startWatchdog, watchdogLimitsFromEnv } from '../diag/watchdog.js';
import { installTestFaults, terminateIOFor } from '../diag/testFaults.js';

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
    pipe.end(statusLine({ ok: true, ...ready }));
  } catch (err) {
    log.error('start-failed', { code: errorCode(err) });
    pipe.end(statusLine({ ok: false, code: errorCode(err) }));
    process.exit(1);
  }
}

/** The server's init line, validated; an init that is not one is refused on the pipe (its code
 * only: the line carries keys) and ends this holder. */
function readInit(pipe: net.Socket): Promise<HolderInit> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      if (buf.length > MAX_INIT_BYTES) return refuse(new ProtocolError('oversize', 'The holder init is too large.'));
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      pipe.off('data', onData);
      const init = parseHolderInit(buf.slice(0, nl));
      if (init instanceof ProtocolError) return refuse(init);
      resolve(init);
    };
    const refuse = (err: ProtocolError) => {
      pipe.off('data', onData);
      pipe.once('close', () => process.exit(1));
      pipe.end(statusLine({ ok: false, code: `init-${err.code}` }));
    };
    pipe.on('data', onData);
    pipe.once('end', () => reject(new Error('init pipe closed')));
  });
}
