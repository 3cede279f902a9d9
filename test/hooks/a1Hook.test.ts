// bin/a1-hook, the command agents run for every hook event: outside an a1 tab it starts nothing;
// inside one it returns before the report is sent, handing the payload (stdin, or the last
// argument for Codex's notify) and the agent's pids to `a1 status --hook` in the background.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const HOOK = path.join(REPO_ROOT, 'bin', 'a1-hook');
const dirs: string[] = [];
/** The fake reports started: each lingers until released, and is ended by pid afterwards. */
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already released and gone.
    }
  }
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A stand-in for node that records what it was given, then lingers so the hook cannot wait for it. */
function readSeen(out: string): { args: string; parents: string; pid: number; stdin: string } | null {
  if (!fs.existsSync(out)) return null;
  const [args, parents, pid, ...stdin] = fs.readFileSync(out, 'utf8').split('\n');
  started.push(Number(pid));
  return { args, parents, pid: Number(pid), stdin: stdin.join('\n') };
}

function fakeNode(): { node: string; out: string; release: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1hook-'));
  dirs.push(dir);
  const out = path.join(dir, 'out.json');
  const release = path.join(dir, 'release');
  const node = path.join(dir, 'node');
  fs.writeFileSync(
    node,
    `#!/bin/sh\n{ echo "$*"; echo "$A1_HOOK_PARENTS"; echo "$$"; cat; } > '${out}.tmp'\nmv '${out}.tmp' '${out}'\nwhile [ -d '${dir}' ] && [ ! -e '${release}' ]; do sleep 0.05; done\n`,
    { mode: 0o755 },
  );
  return { node, out, release };
}

/** Runs the hook as an agent would (`sh -c`), feeding `stdin`; resolves when the hook's shell exits. */
function runHook(args: string[], env: NodeJS.ProcessEnv, stdin: string): Promise<{ code: number | null; pid: number }> {
  const command = [HOOK, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('/bin/sh', ['-c', command], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, pid: child.pid! })));
}

describe('bin/a1-hook', () => {
  it('outside an a1 tab exits 0 at once and starts nothing', async () => {
    const f = fakeNode();
    const r = await runHook([f.node, 'claude:Stop'], { PATH: process.env.PATH }, '{"hook_event_name":"Stop"}');
    expect(r.code).toBe(0);
    // Given every chance to have started the report, nothing ran.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.existsSync(f.out)).toBe(false);
  });

  it('outside an a1 tab reads the whole event, however late and large, so the agent never meets a broken pipe', async () => {
    const f = fakeNode();
    const command = [HOOK, f.node, 'claude:PostToolUse'].map((a) => `'${a}'`).join(' ');
    const child = spawn('/bin/sh', ['-c', command], { env: { PATH: process.env.PATH }, stdio: ['pipe', 'pipe', 'pipe'] });
    const writeError = new Promise<Error | null>((resolve) => {
      child.stdin.once('error', resolve);
      child.stdin.once('finish', () => resolve(null));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Written well after the hook started, as an agent that spawns first and writes after does.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.stdin.end(Buffer.alloc(4 << 20, 'x'));
    expect(await writeError).toBeNull();
    expect(await exited).toBe(0);
    expect(fs.existsSync(f.out)).toBe(false);
  });

  it("outside an a1 tab, Codex's notify returns without reading stdin (it may be the agent's terminal)", async () => {
    const f = fakeNode();
    const command = [HOOK, f.node, 'codex:notify', '{"type":"agent-turn-complete"}'].map((a) => `'${a}'`).join(' ');
    // stdin is a pipe that never closes: a hook that read it would never return.
    const child = spawn('/bin/sh', ['-c', command], { env: { PATH: process.env.PATH }, stdio: ['pipe', 'pipe', 'pipe'] });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
  });

  it("inside a tab returns while the report still runs, with the payload, the event and the agent's pids", async () => {
    const f = fakeNode();
    const r = await runHook([f.node, 'claude:Stop'], { PATH: process.env.PATH, A1_BRIDGE: '/nowhere.sock' }, '{"hook_event_name":"Stop"}');
    expect(r.code).toBe(0);
    const seen = await waitFor(() => readSeen(f.out), { what: 'the background report to start' });
    // The hook's shell is gone while the report still runs: the agent never waited for it.
    expect(fs.existsSync(f.release)).toBe(false);
    expect(seen.args).toBe(`${path.join(REPO_ROOT, 'bin', 'a1')} status --hook claude:Stop`);
    expect(seen.stdin).toBe('{"hook_event_name":"Stop"}');
    const [parent, grandparent] = String(seen.parents).split(' ').map(Number);
    // The agent (here this test process) is the shell's parent: the hook names it.
    expect([parent, grandparent]).toContain(process.pid);
    // Started after the hook's own shell: later events get later pids.
    expect(seen.pid).toBeGreaterThan(r.pid);
    fs.writeFileSync(f.release, '');
  });

  it("passes Codex's notify payload, the last argument, through", async () => {
    const f = fakeNode();
    await runHook([f.node, 'codex:notify', '{"type":"agent-turn-complete"}'], { PATH: process.env.PATH, A1_BRIDGE: '/nowhere.sock' }, '');
    const seen = await waitFor(() => readSeen(f.out), { what: 'the background report to start' });
    expect(seen.args).toBe(`${path.join(REPO_ROOT, 'bin', 'a1')} status --hook codex:notify {"type":"agent-turn-complete"}`);
    fs.writeFileSync(f.release, '');
  });
});
