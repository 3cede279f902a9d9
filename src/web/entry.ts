// Bundle entry for the web process: bin/a1 loads it for `__web` (dist/web.cjs).
export { webMain } from './main.js';
