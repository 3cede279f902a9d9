// Holder supervision decisions (SPEC §4, §10), as the server shell asks them.
import { isShellCommand } from '../../src/lifecycle/agents.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  afterHolderConnected,
  afterLinkLoss,
  afterPendingConnectFailed,
  awaitsVerification,
  startLaunches,
  closesOnExit,
  heartbeatAction,
  kindAfterAgentReport,
  HOLDER_HEARTBEAT_MS,
  HOLDER_MISSED_BEATS,
  reportChangesRow,
  startAction,
} from '../../src/server/core/index.js';

describe('holder supervision', () => {
  it('times a holder out once the missed beats went unanswered, and pings it before', () => {
    expect(HOLDER_HEARTBEAT_MS * HOLDER_MISSED_BEATS).toBe(15_000);
    expect(heartbeatAction(0)).toBe('ping');
    expect(heartbeatAction(HOLDER_MISSED_BEATS - 1)).toBe('ping');
    expect(heartbeatAction(HOLDER_MISSED_BEATS)).toBe('timeout');
  });

  const loss = { writer: true, wanted: true, linked: false, holderAlive: true, attempts: 0, maxAttempts: 10 };

  it('reconnects a live holder until the attempts run out, then reports it unverifiable; replaces a dead one', () => {
    expect(afterLinkLoss(loss)).toBe('reconnect');
    expect(afterLinkLoss({ ...loss, attempts: 9 })).toBe('reconnect');
    expect(afterLinkLoss({ ...loss, attempts: 10 })).toBe('unverifiable');
    expect(afterLinkLoss({ ...loss, holderAlive: false })).toBe('replace');
  });

  it('does nothing for a fenced server, an unwanted tab, or one linked again (property)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), fc.nat(20), (writer, wanted, linked, holderAlive, attempts) => {
        const action = afterLinkLoss({ writer, wanted, linked, holderAlive, attempts, maxAttempts: 10 });
        // A fenced server neither reconnects nor replaces anything (SPEC §5).
        if (!writer || !wanted || linked) expect(action).toBe('nothing');
        // A live holder is never replaced: two holders would run one tab.
        if (holderAlive) expect(action).not.toBe('replace');
      }),
    );
  });

  it('starts only a tab that should run, and moves an expired session to history instead', () => {
    expect(startAction({ desired: 'stopped', resumesSession: true, recordExpired: true })).toBe('leave');
    expect(startAction({ desired: 'running', resumesSession: true, recordExpired: true })).toBe('toHistory');
    expect(startAction({ desired: 'running', resumesSession: true, recordExpired: false })).toBe('start');
    expect(startAction({ desired: 'running', resumesSession: false, recordExpired: true })).toBe('start');
  });

  it('writes a holder report only when it changes the row', () => {
    const row = { lifecycle: 'running', childPid: 5, childInc: 'c1' };
    expect(reportChangesRow(row, { ...row })).toBe(false);
    expect(reportChangesRow(row, { ...row, lifecycle: 'exited' })).toBe(true);
    expect(reportChangesRow(row, { ...row, childPid: 6 })).toBe(true);
    expect(reportChangesRow(row, { ...row, childInc: 'c2' })).toBe(true);
  });
});

describe("a tab's kind after its child reports an agent session", () => {
  it('takes a kind the config names, turns a shell-kind tab running an unknown agent generic, and keeps any other', () => {
    expect(kindAfterAgentReport('shell', 'claude', ['claude', 'codex'], false)).toBe('claude');
    expect(kindAfterAgentReport('codex', 'claude', ['claude', 'codex'], false)).toBe('claude');
    expect(kindAfterAgentReport('shell', 'mystery', ['claude'], false)).toBe('generic');
    expect(kindAfterAgentReport('shell', null, ['claude'], false)).toBe('generic');
    expect(kindAfterAgentReport('codex', 'mystery', ['claude', 'codex'], false)).toBe('codex');
  });

  it('keeps a tab whose program is a shell a shell: the agent typed into it is its guest', () => {
    expect(kindAfterAgentReport('shell', 'claude', ['claude', 'codex'], true)).toBe('shell');
    expect(kindAfterAgentReport('shell', 'mystery', ['claude'], true)).toBe('shell');
    // A tab made as an agent tab stays one, whatever runs it.
    expect(kindAfterAgentReport('claude', 'claude', ['claude'], true)).toBe('claude');
  });

  it('knows an interactive shell from a program, and from sh -c CMD', () => {
    for (const argv of [['/bin/bash'], ['bash', '--norc', '--noprofile'], ['-zsh'], ['/usr/bin/fish', '-l'], ['sh']]) expect(isShellCommand(argv)).toBe(true);
    for (const argv of [['claude'], ['codex', '--no-daemon'], ['sh', '-c', 'claude'], ['/usr/bin/node', 'agent.mjs'], []]) expect(isShellCommand(argv)).toBe(false);
  });
});

describe('what an exit does to the tab (issues 18 and 28, SPEC §15)', () => {
  // The holder never restarts a plain tab's program: it reports `exited` however it ended.
  const shellExit = { kind: 'shell', runsShell: true, lifecycle: 'exited' };
  it.each([
    ['a plain shell tab whose shell ended (any status or signal)', shellExit, true],
    ['a command tab (`a1 new -- CMD`): it stays as it ended', { ...shellExit, runsShell: false }, false],
    ['a tab still starting', { ...shellExit, lifecycle: 'starting' }, false],
    ['a tab whose shell could not start', { ...shellExit, lifecycle: 'failed' }, false],
    ['an agent kind from the config (stays exited)', { ...shellExit, kind: 'claude' }, false],
    ['a running child', { ...shellExit, lifecycle: 'running' }, false],
  ])('%s: closes %s', (_what, facts, closes) => {
    expect(closesOnExit(facts)).toBe(closes);
  });
});

describe('decisions the holder IO takes after an await', () => {
  const connected = { awaited: true, sameHolder: true, pending: false };

  it('binds the holder it waited for, drops one nobody waits for, and names an impostor by what was recorded', () => {
    expect(afterHolderConnected(connected)).toBe('bind');
    expect(afterHolderConnected({ ...connected, awaited: false })).toBe('drop');
    expect(afterHolderConnected({ ...connected, awaited: false, sameHolder: false })).toBe('drop');
    expect(afterHolderConnected({ ...connected, sameHolder: false })).toBe('unverifiable');
    expect(afterHolderConnected({ ...connected, sameHolder: false, pending: true })).toBe('gone');
  });

  it('waits for a pending holder still starting until the deadline, else counts it gone, unless nobody waits', () => {
    const failed = { awaited: true, holderStarting: true, beforeDeadline: true };
    expect(afterPendingConnectFailed(failed)).toBe('wait');
    expect(afterPendingConnectFailed({ ...failed, beforeDeadline: false })).toBe('gone');
    expect(afterPendingConnectFailed({ ...failed, holderStarting: false })).toBe('gone');
    expect(afterPendingConnectFailed({ ...failed, awaited: false })).toBe('nothing');
  });

  it('awaits a verification only for the verifying incarnation, and launches a start only its tab still makes', () => {
    const holder = { inc: 'h1', pid: 5, startTime: 'st5' };
    expect(awaitsVerification({ verifying: true, holder }, 'h1')).toBe(true);
    expect(awaitsVerification({ verifying: true, holder }, 'h0')).toBe(false);
    expect(awaitsVerification({ verifying: false, holder }, 'h1')).toBe(false);
    expect(awaitsVerification(undefined, 'h1')).toBe(false);
    const tab = { starting: 'h2' } as Parameters<typeof startLaunches>[0];
    expect(startLaunches(tab, 'h2')).toBe(true);
    expect(startLaunches(tab, 'h1')).toBe(false);
    expect(startLaunches(undefined, 'h2')).toBe(false);
  });
});
