// The one-process reference: this process's raw stdin straight to the shell's PTY and the PTY's
// output straight to stdout, with no parsing, no compositing and no second process. Its echo
// latency is what a Node client costs at all. Usage: node direct.mjs SHELL [ARG...]

import { ptyWriter, spawnShell } from './shell.mjs';

const shell = spawnShell(process.argv.slice(2), { cols: process.stdout.columns, rows: process.stdout.rows });
const toShell = ptyWriter(shell);
process.stdin.setRawMode(true);
process.stdin.on('data', toShell);
shell.onData((chunk) => process.stdout.write(chunk));
shell.onExit(() => process.exit(0));
