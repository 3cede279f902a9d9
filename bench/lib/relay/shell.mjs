// The shell end of both relays: the bench's shell in a PTY of the client's size, and a writer
// that puts keys on the PTY master at once, as a1's holder does (src/holder/ptyWriter.ts):
// node-pty's own write goes through the thread pool, a round trip that a1 does not pay either.

import fs from 'node:fs';
import nodePty from 'node-pty';

/** A shell not reading its input is offered the rest again this often, not in a busy loop. */
const RETRY_MS = 1;

/** Spawns `argv` in a PTY with the relay's own environment (the bench's prompt, TERM and marker). */
export function spawnShell(argv, { cols, rows }) {
  const [file, ...args] = argv;
  // encoding null: bytes pass through undecoded, as in a1's holder.
  return nodePty.spawn(file, args, { name: process.env.TERM, cols, rows, cwd: process.cwd(), env: process.env, encoding: null });
}

/** Returns `write(chunk)`, which writes to the PTY master now and queues only what EAGAIN refuses. */
export function ptyWriter(shell) {
  const queue = [];
  let retry = null;
  const flush = () => {
    retry = null;
    while (queue.length > 0) {
      let written;
      try {
        written = fs.writeSync(shell.fd, queue[0]);
      } catch (error) {
        if (error.code !== 'EAGAIN') throw error;
        retry = setTimeout(flush, RETRY_MS);
        return;
      }
      if (written < queue[0].length) queue[0] = queue[0].subarray(written);
      else queue.shift();
    }
  };
  return (chunk) => {
    queue.push(chunk);
    if (queue.length === 1 && retry === null) flush();
  };
}
