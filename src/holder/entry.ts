// Bundle entry for holder processes: bin/a1 loads it for `__holder`, so a holder never loads
// the CLI's modules (each holder is a resident process per tab: its memory counts N times).
export { holderMain } from './main.js';
