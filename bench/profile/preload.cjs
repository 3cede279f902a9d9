// `node bench/run.mjs --profile DIR` preloads this into every Node the run starts (NODE_OPTIONS):
// each process samples its own CPU and writes DIR/<role>-<pid>-<n>.cpuprofile every 150 ms for 3 s, then every second, at
// exit and on SIGUSR2 (Node 20 refuses --cpu-prof in NODE_OPTIONS). Every second, because the run
// ends a1's processes with SIGKILL and a dropped client with SIGHUP: only what was written counts. Roles: server, holder, client (bare a1),
// a1 subcommands by name, other scripts by file name. `node bench/profile/top.mjs DIR` sums them.
'use strict';
const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const inspector = require('node:inspector');
  const fs = require('node:fs');
  const path = require('node:path');
  const script = path.basename(process.argv[1] ?? 'node');
  const sub = process.argv[2] ?? '';
  const role = script === 'a1' ? (sub === '__server' ? 'server' : sub === '__holder' ? 'holder' : sub && !sub.startsWith('-') ? `a1-${sub}` : 'client') : script.replace(/\.[cm]?js$/, '');
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  // 250 µs: fine enough for a key's few milliseconds of work.
  session.post('Profiler.setSamplingInterval', { interval: 250 });
  session.post('Profiler.start');
  let n = 0;
  const dump = (again) => {
    session.post('Profiler.stop', (err, res) => {
      if (!err) {
        try {
          fs.writeFileSync(path.join(dir, `${role}-${process.pid}-${++n}.cpuprofile`), JSON.stringify(res.profile));
        } catch {
          // The run's directory may be gone at the very end; a lost profile is no failure.
        }
      }
      if (again) session.post('Profiler.start');
    });
  };
  process.on('SIGUSR2', () => dump(true));
  // Often while a client starts (an attach is over, and SIGKILLed, in well under a second), then
  // once a second.
  const startedAt = Date.now();
  const next = () => setTimeout(() => { dump(true); next(); }, Date.now() - startedAt < 3000 ? 150 : 1000).unref();
  next();
  process.on('exit', () => dump(false));
}
