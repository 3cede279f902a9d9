// The holder half of the two-process reference: owns the shell's PTY and relays bytes between it
// and one client over a Unix socket, doing nothing else. Started by client.mjs; tells it "ready"
// over IPC once listening. Usage: node holder.mjs SOCKET COLS ROWS SHELL [ARG...]

import net from 'node:net';
import { ptyWriter, spawnShell } from './shell.mjs';

const [socketPath, cols, rows, ...shellArgv] = process.argv.slice(2);

const server = net.createServer((socket) => {
  // One client for the holder's life, like one view of one tab.
  server.close();
  // Started on connection, so the client sees the first prompt.
  const shell = spawnShell(shellArgv, { cols: Number(cols), rows: Number(rows) });
  const toShell = ptyWriter(shell);
  socket.on('data', toShell);
  shell.onData((chunk) => socket.write(chunk));
  shell.onExit(() => socket.end());
  socket.on('error', () => socket.destroy());
  // Without its client the relay has no purpose: end the shell with it.
  socket.on('close', () => {
    shell.kill('SIGKILL');
    process.exit(0);
  });
});
server.listen(socketPath, () => {
  process.send('ready');
  process.disconnect();
});
