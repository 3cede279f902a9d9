// A tab program for the many-tabs measure (measures/manyTabs.mjs): prints a line a second, like
// the other tabs, and keeps one `a1 status --hook` started and waiting for its hook payload on
// stdin. SIGUSR1 hands it the payload, so the measured status change costs a1's bridge, server and
// strip, not a Node start. Reports alternate between needs-input (the chip's `?`) and idle (no
// glyph). The waiting hook's pid and how many reports were handed on are written to STATE_FILE as
// `<pid> <count>`, for the bench to know when the next report is ready.
//   node statusTicker.mjs A1_ENTRY STATE_FILE

import { spawn } from 'node:child_process';
import fs from 'node:fs';

const [a1Entry, stateFile] = process.argv.slice(2);
/** Claude Code's hook events: PermissionRequest → needs-input (`?`), SessionEnd → idle. */
const EVENTS = ['PermissionRequest', 'SessionEnd'];
const LINE_INTERVAL_MS = 1000;

let handed = 0;
let waiting = null;

function startHook() {
  const event = EVENTS[handed % EVENTS.length];
  const hook = spawn(process.execPath, [a1Entry, 'status', '--hook', `claude:${event}`], { stdio: ['pipe', 'ignore', 'ignore'] });
  waiting = { hook, event };
  fs.writeFileSync(stateFile, `${hook.pid} ${handed}`);
}

process.on('SIGUSR1', () => {
  if (waiting === null) return;
  const { hook, event } = waiting;
  waiting = null;
  handed += 1;
  hook.once('exit', startHook);
  hook.stdin.end(JSON.stringify({ hook_event_name: event }));
});

startHook();
setInterval(() => console.log(new Date().toISOString()), LINE_INTERVAL_MS);
