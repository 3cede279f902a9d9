import { it } from 'vitest';
import { Compositor } from '../../src/app/compositor.js';
import { extractSurface } from '../../src/surface/extract.js';
import { ModeTracker } from '../../src/surface/modes.js';
import { makeTerminal, write } from '../surface/headless.js';
it('perf', async () => {
  const cols = 250, rows = 70;
  const t = makeTerminal(cols, rows); const m = new ModeTracker(t);
  let s = '';
  for (let y = 0; y < rows; y++) { for (let x = 0; x < cols / 10; x++) s += `\x1b[3${x % 8};4${(x + y) % 8}m${x % 3 ? 'abcdefghi ' : '中文字符 '}`; s += '\r\n'; }
  await write(t, s);
  const c = new Compositor(cols, rows);
  for (let k = 0; k < 6; k++) {
    let t0 = performance.now(); const p = extractSurface(t, m, { full: true }); let t1 = performance.now();
    c.invalidate(); c.setSurface(p, 0); let t15 = performance.now(); const out = c.render(); let t2 = performance.now();
    console.log(`extract ${(t1 - t0).toFixed(2)}ms setSurface ${(t15 - t1).toFixed(2)} render-full ${(t2 - t15).toFixed(2)}ms bytes ${out.length}`);
    const p2 = extractSurface(t, m, { full: false, rows: [3] }); p2.lines[0].runs[0].s = 'X' + k;
    t0 = performance.now(); c.setSurface(p2, 0); const o2 = c.render(); t1 = performance.now();
    console.log(`render-diff ${(t1 - t0).toFixed(2)}ms bytes ${o2.length}`);
  }
});
