// Restart, sleep and wake decisions (SPEC §9), as the server shell asks them.
import { describe, expect, it } from 'vitest';
import { restartAction, sleepAction, wakes } from '../../src/server/core/index.js';

describe('tab actions', () => {
  const linked = { linked: true, starting: false, asleep: false, force: false };

  it('restarts an exited or failed child in its holder; a running one only when forced', () => {
    expect(restartAction({ ...linked, lifecycle: 'exited' })).toBe('restartChild');
    expect(restartAction({ ...linked, lifecycle: 'failed' })).toBe('restartChild');
    expect(restartAction({ ...linked, lifecycle: 'running' })).toBe('none');
    expect(restartAction({ ...linked, lifecycle: 'running', force: true })).toBe('restartRunningChild');
    expect(restartAction({ ...linked, lifecycle: 'starting', force: true })).toBe('none');
  });

  it('gives a tab without a holder a new one, unless one is starting or the tab sleeps', () => {
    const bare = { linked: false, starting: false, asleep: false, force: false, lifecycle: 'failed' };
    expect(restartAction(bare)).toBe('startHolder');
    expect(restartAction({ ...bare, starting: true })).toBe('none');
    expect(restartAction({ ...bare, asleep: true })).toBe('none');
  });

  it('sleeps only a present, awake, resumable tab', () => {
    expect(sleepAction({ present: false, asleep: false, resumable: true })).toBe('noTab');
    expect(sleepAction({ present: true, asleep: true, resumable: false })).toBe('alreadyAsleep');
    expect(sleepAction({ present: true, asleep: false, resumable: false })).toBe('notResumable');
    expect(sleepAction({ present: true, asleep: false, resumable: true })).toBe('sleep');
  });

  it('wakes a sleeping tab once', () => {
    expect(wakes({ asleep: true, starting: false, linked: false })).toBe(true);
    expect(wakes({ asleep: true, starting: true, linked: false })).toBe(false);
    expect(wakes({ asleep: true, starting: false, linked: true })).toBe(false);
    expect(wakes({ asleep: false, starting: false, linked: false })).toBe(false);
  });
});
