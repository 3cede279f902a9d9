// A real holder process started the way the server starts one, for tests that drive it through
// its socket with protocol test clients. Every process it starts is ended by pid in `cleanups`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnHolder } from '../../src/server/holderLink.js';
import { deriveKey, makeTicket, TICKET_TTL_MS } from '../../src/security.js';
import { A1_BIN } from '../helpers/pty.js';

export interface TestHolderOptions {
  tabId: string;
  epoch: number;
  rows: number;
  scrollback: number;
  /** Prefix of the temporary directory, to tell tests' leftovers apart. */
  dirPrefix: string;
}

export async function startTestHolder(cleanups: (() => void)[], opts: TestHolderOptions) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), opts.dirPrefix));
  const secret = crypto.randomBytes(32);
  const { tabId } = opts;
  const inc = 'inc1';
  const socketPath = path.join(dir, 'h.sock');
  const spawned = await spawnHolder({
    entry: A1_BIN,
    env: { ...process.env, A1_HOME: dir },
    init: {
      tabId,
      holderInc: inc,
      epoch: opts.epoch,
      command: ['/bin/bash', '--norc', '--noprofile'],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PS1: 'h$ ', HOME: dir },
      cols: 80,
      rows: opts.rows,
      scrollback: opts.scrollback,
      umask: 0o022,
      socketPath,
      holderKey: deriveKey(secret, 'holder', tabId, inc).toString('base64'),
      ticketKey: deriveKey(secret, 'ticket', tabId, inc).toString('base64'),
      inputQueueBytes: 1024 * 1024,
      logDir: path.join(dir, 'logs'),
      resume: null,
      recoveryDir: dir,
      bridgeKey: deriveKey(secret, 'bridge', tabId, inc).toString('base64'),
      bridgeSocketPath: path.join(dir, 'b.sock'),
      agentKind: null,
      stallNoticeMs: 300_000,
      unresponsiveRestartMs: 120_000,
    },
  });
  cleanups.push(() => {
    for (const pid of [spawned.childPid, spawned.pid]) {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const ticketKey = deriveKey(secret, 'ticket', tabId, inc);
  const ticket = (clientId: string, expiresAt = Date.now() + TICKET_TTL_MS) => makeTicket(ticketKey, { clientId, tabId, holderInc: inc, expiresAt });
  return { dir, secret, tabId, inc, socketPath, spawned, holderKey: deriveKey(secret, 'holder', tabId, inc), ticketKey, ticket };
}
