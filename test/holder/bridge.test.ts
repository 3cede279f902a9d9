// The tab bridge over real Unix sockets: a report is admitted only with the key of this tab's
// current child incarnation; another tab's token, an ended incarnation and a stranger are refused.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, afterEach } from 'vitest';
import { BridgeListener, isLaterPid, isLaterReport, type BridgeReport } from '../../src/holder/bridge.js';
import { bridgeToken, parseBridgeToken } from '../../src/protocol/bridgeToken.js';
import { connectUnix } from '../../src/protocol/connection.js';
import { connectHandshake } from '../../src/protocol/handshake.js';
import { bridgeSchema } from '../../src/protocol/messages.js';
import { sendStatus, StatusError } from '../../src/cli/status.js';
import type { Logger } from '../../src/log.js';
import { processGroupOf } from '../../src/proc.js';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function bridge(inc: { current: string | null }, runsInTab: (pids: number[]) => boolean = () => true, applies: (r: BridgeReport) => boolean = () => true) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1b-'));
  const key = crypto.randomBytes(32);
  const reports: BridgeReport[] = [];
  const socket = path.join(dir, 'b.sock');
  const listener = new BridgeListener(socket, key, () => inc.current, runsInTab, (r) => applies(r) && reports.push(r) > 0, quiet);
  cleanups.push(() => {
    listener.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { listener, key, reports, socket };
}

function envFor(socket: string, token: string): NodeJS.ProcessEnv {
  return { A1_TAB_ID: 'tab-x', A1_BRIDGE: socket, A1_BRIDGE_TOKEN: token };
}

describe('the tab bridge', () => {
  it('admits a report with the current incarnation\'s token, carrying no text but ids', async () => {
    const inc = { current: 'inc-1' };
    const b = bridge(inc);
    await b.listener.listen();
    expect(fs.statSync(b.socket).mode & 0o777).toBe(0o600);
    await sendStatus(envFor(b.socket, bridgeToken(b.key, 'inc-1')), { state: 'working', sessionId: 's-1', agent: 'claude' });
    expect(b.reports).toEqual([{ state: 'working', sessionId: 's-1', agent: 'claude', name: null, sameSession: false, groups: [processGroupOf(process.pid)] }]);
  });

  it('refuses a token from another tab, and one from an ended incarnation', async () => {
    const inc = { current: 'inc-1' };
    const a = bridge(inc);
    const b = bridge(inc);
    await a.listener.listen();
    await b.listener.listen();
    // Tab A's token against tab B's bridge: same incarnation name, another key.
    await expect(sendStatus(envFor(b.socket, bridgeToken(a.key, 'inc-1')), { state: 'idle' })).rejects.toBeInstanceOf(StatusError);
    // The child restarted: its predecessor's token proves nothing any more.
    inc.current = 'inc-2';
    await expect(sendStatus(envFor(a.socket, bridgeToken(a.key, 'inc-1')), { state: 'idle' })).rejects.toBeInstanceOf(StatusError);
    await sendStatus(envFor(a.socket, bridgeToken(a.key, 'inc-2')), { state: 'idle' });
    expect(a.reports).toHaveLength(1);
    expect(b.reports).toHaveLength(0);
  });

  it('refuses an unknown state, and fields with control characters are dropped', async () => {
    const inc = { current: 'inc-1' };
    const b = bridge(inc);
    await b.listener.listen();
    const env = envFor(b.socket, bridgeToken(b.key, 'inc-1'));
    await expect(sendStatus(env, { state: 'dancing' })).rejects.toBeInstanceOf(StatusError);
    await sendStatus(env, { state: 'idle', sessionId: 'a\x1b[2Jb', name: 'ok' });
    expect(b.reports).toEqual([{ state: 'idle', sessionId: null, agent: null, name: 'ok', sameSession: false, groups: [processGroupOf(process.pid)] }]);
  });

  it('outside a tab, says so and sends nothing', async () => {
    await expect(sendStatus({}, { state: 'idle' })).rejects.toThrow('status reports work only inside an a1 tab.');
    expect(parseBridgeToken('garbage')).toBeNull();
  });
});

describe('ordering', () => {
  it('pids order reports, wrapping at pid_max: a later pid is a later report', () => {
    expect(isLaterPid(200, 100, 1000)).toBe(true);
    expect(isLaterPid(100, 200, 1000)).toBe(false);
    expect(isLaterPid(100, 100, 1000)).toBe(false);
    // Wrapped: 990 was handed out, then the space wrapped to 5.
    expect(isLaterPid(5, 990, 1000)).toBe(true);
    expect(isLaterPid(990, 5, 1000)).toBe(false);
  });

  it('orders hook processes that started far apart by their start, close ones by pid', () => {
    const at = (pid: number, startedAt: number) => ({ pid, startedAt, forked: true });
    // Back to back: the later pid wins, whatever the Node starts said.
    expect(isLaterReport(at(101, 1_000), at(100, 1_050), 32_768)).toBe(true);
    expect(isLaterReport(at(100, 1_050), at(101, 1_000), 32_768)).toBe(false);
    // Minutes apart on a busy machine whose pids wrapped more than half way round: by time.
    expect(isLaterReport(at(12_000, 200_000), at(27_000, 1_000), 32_768)).toBe(true);
    expect(isLaterReport(at(27_000, 1_000), at(12_000, 200_000), 32_768)).toBe(false);
  });

  it('orders by start a report whose process was not forked for it (a subshell\'s last command runs in its process)', () => {
    const hook = (pid: number, startedAt: number) => ({ pid, startedAt, forked: true });
    const typed = (pid: number, startedAt: number) => ({ pid, startedAt, forked: false });
    // `(a1 status needs-input; sleep 1; a1 status done) &`: done runs in the subshell's own,
    // older process, a second after needs-input's process started.
    expect(isLaterReport(typed(100, 2_000), typed(101, 1_000), 32_768)).toBe(true);
    expect(isLaterReport(typed(101, 1_000), typed(100, 2_000), 32_768)).toBe(false);
    // Beside a hook report too.
    expect(isLaterReport(typed(100, 2_000), hook(101, 1_000), 32_768)).toBe(true);
    expect(isLaterReport(hook(100, 2_000), typed(101, 1_000), 32_768)).toBe(true);
  });

  it('drops a report from a process started before the newest admitted one', async () => {
    const inc = { current: 'inc-1' };
    const b = bridge(inc);
    await b.listener.listen();
    const send = async (state: string, pid: number, startedAt = 1_000) => {
      const conn = await connectUnix(b.socket, bridgeSchema);
      await connectHandshake(conn, { role: 'bridge', key: parseBridgeToken(bridgeToken(b.key, 'inc-1'))!.key, methods: ['status'], extra: { childInc: 'inc-1' } });
      const ack = new Promise((resolve) => conn.onMessage(resolve));
      conn.send({ t: 'status', state, pid, startedAt, forked: true });
      await ack;
      conn.close();
    };
    await send('done', 2_000);
    await send('working', 1_000); // overtaken: started before the report already admitted
    await send('idle', 3_000);
    // Started long after, with a pid from after a wrap: newer.
    await send('working', 10, 60_000);
    expect(b.reports.map((r) => r.state)).toEqual(['done', 'idle', 'working']);
  });

  it('a report the tab ignored (Codex\'s title thread) orders nothing: the turn\'s earlier-started report still lands', async () => {
    const inc = { current: 'inc-1' };
    // The holder ignores a sameSession report about another thread, as it does for Codex's title request.
    const b = bridge(inc, () => true, (r) => !r.sameSession);
    await b.listener.listen();
    const send = async (m: object) => {
      const conn = await connectUnix(b.socket, bridgeSchema);
      await connectHandshake(conn, { role: 'bridge', key: parseBridgeToken(bridgeToken(b.key, 'inc-1'))!.key, methods: ['status'], extra: { childInc: 'inc-1' } });
      const ack = new Promise((resolve) => conn.onMessage(resolve));
      conn.send({ t: 'status', forked: true, ...m });
      await ack;
      conn.close();
    };
    // Seen on a loaded machine: the title thread's notify (started later, pid 2000) reached the
    // bridge before the prompt's working report (pid 1000).
    await send({ state: 'done', pid: 2_000, startedAt: 1_200, sessionId: 'title-thread', sameSession: true });
    await send({ state: 'working', pid: 1_000, startedAt: 1_000 });
    await send({ state: 'idle', pid: 900, startedAt: 900 }); // overtaken by the admitted working report
    expect(b.reports.map((r) => r.state)).toEqual(['working']);
  });

  it('refuses a report from a process that does not run in the tab (a shared daemon holding its token)', async () => {
    const inc = { current: 'inc-1' };
    const asked: number[][] = [];
    const b = bridge(inc, (pids) => {
      asked.push(pids);
      return false;
    });
    await b.listener.listen();
    await expect(sendStatus(envFor(b.socket, bridgeToken(b.key, 'inc-1')), { state: 'working', parents: [4242, 4343] })).rejects.toBeInstanceOf(StatusError);
    expect(asked).toEqual([[process.pid, 4242, 4343]]);
    expect(b.reports).toEqual([]);
  });

  it('names the process groups of the reporter and of the agent that ran it, so a foreground agent is told from other jobs', async () => {
    const inc = { current: 'inc-1' };
    const b = bridge(inc);
    await b.listener.listen();
    // An agent in its own process group, as a job of an interactive shell is.
    const agent = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    cleanups.push(() => agent.kill('SIGKILL'));
    await sendStatus(envFor(b.socket, bridgeToken(b.key, 'inc-1')), { state: 'idle', parents: [agent.pid!, 999_999_999] });
    expect(b.reports[0].groups).toEqual([processGroupOf(process.pid), agent.pid]);
  });
});
