// Which logged events call for a crash record: an exit nobody asked for, and a holder the server
// lost or ended for missing heartbeats (recorded once, not again when its death is logged).
import { describe, it, expect } from 'vitest';
import { INITIAL_EXIT_WATCH, watchExits, type ExitWatchState } from '../../src/diag/exitWatch.js';
import type { LogEntry } from '../../src/log.js';

function run(events: Array<[string, Record<string, string | number | boolean | null>?]>): Array<string | null> {
  let state: ExitWatchState = INITIAL_EXIT_WATCH;
  return events.map(([event, fields]) => {
    const entry = { at: '', pid: 1, level: 'info', role: 'r', event, ...fields } as LogEntry;
    const next = watchExits(state, entry);
    state = next.state;
    return next.due ? `${next.due.reason}:${JSON.stringify(next.due.detail)}` : null;
  });
}

describe('watchExits', () => {
  it('names the child that ended (pid and incarnation), so two crashes in a row differ', () => {
    expect(
      run([
        ['child-started'],
        ['child-exited', { code: null, signal: 9, childPid: 10, childInc: 'c1', crash: true }],
        ['child-started'],
        ['child-exited', { code: null, signal: 9, childPid: 11, childInc: 'c2', crash: true }],
      ]),
    ).toEqual([
      null,
      'child-exit:{"exitCode":null,"signal":9,"childPid":10,"childInc":"c1"}',
      null,
      'child-exit:{"exitCode":null,"signal":9,"childPid":11,"childInc":"c2"}',
    ]);
  });

  it('records a child exit only when a1 did not ask for it and the holder judged it a crash', () => {
    expect(
      run([
        ['child-started'],
        ['child-exited', { code: 1, signal: null, crash: true }],
        ['child-started'],
        ['child-restart', { reason: 'unresponsive' }],
        ['child-exited', { code: null, signal: 9, crash: true }],
        ['child-started'],
        ['child-exited', { code: 0, signal: null, crash: false }],
        ['terminate'],
        ['child-exited', { code: null, signal: 1, crash: true }],
      ]),
    ).toEqual([
      null,
      'child-exit:{"exitCode":1,"signal":null}',
      null,
      null,
      null,
      null,
      // Status 0 is a program that finished (issue 18, SPEC §15): never a crash record.
      null,
      null,
      null,
    ]);
  });

  it('records an exit 0 that came with a signal: the child was killed', () => {
    expect(run([['child-started'], ['child-exited', { code: 0, signal: 15, crash: true }]])).toEqual([null, 'child-exit:{"exitCode":0,"signal":15}']);
  });

  it('records no exit the holder judged no crash (issue 28): a plain tab\'s program, an interrupted agent', () => {
    expect(
      run([
        ['child-started'],
        ['child-exited', { code: 3, signal: null, crash: false }],
        ['child-started'],
        ['child-exited', { code: null, signal: 2, crash: false }],
      ]),
    ).toEqual([null, null, null, null]);
  });

  it('records a lost holder, and a timed-out one once', () => {
    expect(
      run([
        ['holder-died', { tab: 'a' }],
        ['holder-timeout', { tab: 'b', silentMs: 15_000 }],
        ['holder-died', { tab: 'b' }],
        ['holder-died', { tab: 'b' }],
        ['adopted', { tab: 'c' }],
      ]),
    ).toEqual(['holder-exit:{"tab":"a"}', 'holder-timeout:{"tab":"b","silentMs":15000}', null, 'holder-exit:{"tab":"b"}', null]);
  });
});
