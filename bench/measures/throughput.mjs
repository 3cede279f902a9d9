// Output throughput: the time from pressing Enter on `cat <32 MiB of coloured lines>` until the
// end marker printed after it reaches the client's terminal. Both multiplexers redraw rather
// than stream every byte, so the marker, not the byte count, is what counts. The marker is printed
// only if `cat` succeeded, which it does only once all of the file's bytes went into the PTY (and so
// through the multiplexer reading it); the file is checked to hold the 32 MiB before any round.

import fs from 'node:fs';
import path from 'node:path';
import { a1, tmux, withSystem } from '../lib/systems.mjs';

/** The figure: large enough that steady-state throughput dominates start-up costs. */
export const OUTPUT_BYTES = 32 * 1024 * 1024;
/** The typed command prints `BENCH%sEND` with `-DONE-`, so its own echo never contains this. */
const MARKER = 'BENCH-DONE-END';
/** Printed instead when `cat` fails, so a run that did not move the file fails at once. */
const CAT_FAILED = 'BENCH-CAT-FAILED';
/** Echoing one typed line is quick; this only guards against a client that never draws it. */
const COMMAND_ECHO_TIMEOUT_MS = 10_000;
/** Far above tmux's few seconds: a slow a1 is still measured rather than failed. */
const OUTPUT_TIMEOUT_MS = 300_000;
/** Lines are kept narrower than the 120-column screen so none wraps. */
const FILLER = 'the quick brown fox jumps over the lazy dog';

/** Numbered lines in 16-colour, 256-colour and truecolour SGR, with bold and resets. */
export function colouredLine(n) {
  const r = (n * 37) % 256;
  const g = (n * 91) % 256;
  const b = (n * 53) % 256;
  return (
    `\x1b[38;5;${16 + (n % 216)}m${String(n).padStart(9, '0')}\x1b[0m ` +
    `\x1b[3${n % 8}m${FILLER}\x1b[0m ` +
    `\x1b[1;38;2;${r};${g};${b}m${FILLER.slice(0, 20 + (n % 20))}\x1b[0m\n`
  );
}

/** Writes whole coloured lines until the file holds at least `bytes`; returns its size. */
export function writeColouredFile(file, bytes) {
  const fd = fs.openSync(file, 'w', 0o600);
  let written = 0;
  let n = 0;
  try {
    while (written < bytes) {
      const lines = [];
      for (let i = 0; i < 4096; i++) lines.push(colouredLine(++n));
      const chunk = Buffer.from(lines.join(''), 'utf8');
      fs.writeSync(fd, chunk);
      written += chunk.length;
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

async function timeOutput(client, file) {
  client.write(`cat ${file} && printf 'BENCH%sEND\\n' -DONE- || printf 'BENCH%sFAILED\\n' -CAT-`);
  await client.waitForScreen((lines) => lines.some((line) => line.includes('-DONE-')), {
    timeoutMs: COMMAND_ECHO_TIMEOUT_MS,
    what: 'the typed command',
  });
  client.detachScreen();
  const marker = client.waitForBytes(MARKER, { timeoutMs: OUTPUT_TIMEOUT_MS, what: 'the end marker' });
  const catFailed = client.waitForBytes(CAT_FAILED, { timeoutMs: OUTPUT_TIMEOUT_MS, what: 'cat to fail' }).then(() => {
    throw new Error(`cat ${path.basename(file)} failed: the output did not all go through`);
  });
  catFailed.catch(() => {}); // settled by the race below, or left to time out once the marker won
  const pressed = client.write('\r');
  const arrived = await Promise.race([marker, catFailed]);
  return { seconds: (arrived - pressed) / 1000 };
}

export const throughput = {
  name: 'throughput',
  description: '32 MiB of coloured lines through the client (a1, tmux)',
  metrics: [{ key: 'seconds', label: 'output throughput: 32 MiB to the client', unit: 's' }],
  prepare(ctx) {
    const file = path.join(ctx.runDir, 'coloured.txt');
    writeColouredFile(file, OUTPUT_BYTES);
    const bytes = fs.statSync(file).size;
    if (bytes < OUTPUT_BYTES) throw new Error(`the output file holds ${bytes} bytes, under ${OUTPUT_BYTES}`);
    ctx.log(`throughput: wrote ${(bytes / 1024 / 1024).toFixed(1)} MiB of coloured lines`);
    return { file, bytes };
  },
  drivers: {
    a1: (ctx, { file }) => withSystem(a1, ctx, (client) => timeOutput(client, file)),
    tmux: (ctx, { file }) => withSystem(tmux, ctx, (client) => timeOutput(client, file)),
  },
};
