// Bundle entry for the server process: bin/a1 loads it for `__server` (dist/server.cjs), so a
// starting server loads neither the CLI's command table nor yargs: it starts with every cold
// start and every recovery.
export { serverMain } from './main.js';
