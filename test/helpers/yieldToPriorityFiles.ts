// Setup file of the `e2e` project: its files run, and every process they start runs (children
// inherit it), at a lower scheduling priority than the `e2e-serial` file running beside them, so
// that file sees the machine nearly as an idle one would (its deadlines and key timings were sized
// for that) while these use what it leaves. Linux gives a nice-10 task about a tenth of a core
// that a nice-0 task wants; when the serial file waits, these get it all.
import os from 'node:os';

const BACKGROUND_NICE = 10;

os.setPriority(Math.max(os.getPriority(), BACKGROUND_NICE));
