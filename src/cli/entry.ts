// Bundle entry: re-exports main for bin/a1.
export { main } from './main.js';
