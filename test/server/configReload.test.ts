// `a1 tabs host reload`'s server side: the file read into the running config in place, the core's
// bounds replaced by a `limits` event, and a file that cannot be parsed changing nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { coreLimits, reloadConfig } from '../../src/server/configReload.js';
import { boot, step, type CoreEvent, type CoreLimits, type CoreState, type Effect } from '../../src/server/core/index.js';

const env = { SHELL: '/bin/bash' };
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-reload-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('reloadConfig', () => {
  it('updates the running config in place and hands the core its new bounds', () => {
    const running = defaultConfig(env);
    const held = running;
    fs.writeFileSync(path.join(dir, 'config.json'), '{ "tabsMax": 3, "theme": { "viewed": "red" }, }');
    const limits: CoreLimits[] = [];
    const notices: string[] = [];
    const r = reloadConfig(running, dir, env, { setLimits: (l) => limits.push(l), notice: (n) => notices.push(n) });
    expect(notices).toEqual(['Config reloaded. Applied now: tabsMax. theme applies at the next attach (`a1`).']);
    expect(r).toEqual({ kept: false, changed: [{ key: 'tabsMax', applies: 'reload' }, { key: 'theme', applies: 'attach' }], problems: [] });
    expect(held.tabsMax).toBe(3);
    expect(limits).toEqual([coreLimits(held)]);
    expect(limits[0].tabsMax).toBe(3);
  });

  it('keeps everything when the file cannot be parsed', () => {
    const running = { ...defaultConfig(env), tabsMax: 2 };
    fs.writeFileSync(path.join(dir, 'config.json'), '{ "tabsMax": ');
    const limits: CoreLimits[] = [];
    const notices: string[] = [];
    const r = reloadConfig(running, dir, env, { setLimits: (l) => limits.push(l), notice: (n) => notices.push(n) });
    expect(r.kept).toBe(true);
    expect(notices).toEqual([]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/config\.json:1:\d+: not valid JSON/);
    expect(running.tabsMax).toBe(2);
    expect(limits).toEqual([]);
  });
});

describe('the core takes new limits', () => {
  function drive(s: CoreState, e: CoreEvent): { state: CoreState; effects: Effect[] } {
    const effects: Effect[] = [];
    const r = step(s, e);
    let next = r.state;
    for (const f of r.effects) {
      if (f.t === 'commit') {
        const inner = drive(next, { t: 'committed', id: f.id, result: 'ok' });
        next = inner.state;
        effects.push(...inner.effects);
      } else effects.push(f);
    }
    return { state: next, effects };
  }
  const replies = (fx: Effect[]) => fx.filter((f) => f.t === 'reply').map((f) => (f as Extract<Effect, { t: 'reply' }>).reply);
  const create = (reqId: number): CoreEvent => ({ t: 'request', clientId: 'c1', reqId, req: { op: 'create', name: `t${reqId}`, sessionId: null } });

  it('a raised tabsMax admits the tab the old one refused', () => {
    const limits = coreLimits({ ...defaultConfig(env), tabsMax: 1 });
    const b = boot('s1', 0, { epoch: 0, rev: 0, tabs: {} }, limits);
    let s = drive(b.state, { t: 'committed', id: 1, result: 'ok' }).state;
    s = drive(s, { t: 'clientAttached', clientId: 'c1' }).state;
    s = drive(s, create(1)).state;
    const refused = drive(s, create(2));
    expect(replies(refused.effects)).toEqual([expect.objectContaining({ ok: false, code: 'tabs-max' })]);
    s = drive(refused.state, { t: 'limits', limits: { ...limits, tabsMax: 2 } }).state;
    expect(s.limits.tabsMax).toBe(2);
    expect(replies(drive(s, create(3)).effects)).toEqual([expect.objectContaining({ ok: true })]);
  });
});
