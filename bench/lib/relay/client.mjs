// The client half of the two-process reference, a1's topology with none of a1's work: starts a
// holder (holder.mjs) detached, as a1's holders are, then relays its raw stdin to the holder over
// a Unix socket and the holder's bytes to stdout. Usage: node client.mjs SOCKET SHELL [ARG...]

import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const HOLDER = fileURLToPath(new URL('./holder.mjs', import.meta.url));
const [socketPath, ...shellArgv] = process.argv.slice(2);

function fail(message) {
  process.stderr.write(`relay client: ${message}\n`);
  process.exit(1);
}

function relay() {
  const socket = net.createConnection(socketPath, () => {
    process.stdin.setRawMode(true);
    process.stdin.on('data', (chunk) => socket.write(chunk));
  });
  socket.on('data', (chunk) => process.stdout.write(chunk));
  socket.on('error', (error) => fail(`the holder's socket failed: ${error.message}`));
  socket.on('close', () => process.exit(0));
}

const args = [HOLDER, socketPath, String(process.stdout.columns), String(process.stdout.rows), ...shellArgv];
// stderr stays the client's terminal, so a holder that cannot start says why on the bench's screen.
const holder = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
let ready = false;
holder.once('message', () => {
  ready = true;
  holder.unref();
  relay();
});
holder.once('exit', (code, signal) => {
  if (!ready) fail(`the holder exited before it was ready (${signal ?? `code ${code}`})`);
});
holder.once('error', (error) => fail(`could not start the holder: ${error.message}`));
