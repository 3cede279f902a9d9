// The holder's small parts and the decisions it makes after an await, without processes.
import { describe, expect, it, vi } from 'vitest';
import { Emitter } from '../../src/emitter.js';
import { ChildSlot } from '../../src/holder/childSlot.js';
import { afterRestore, SocketKeeper, SOCKET_CHECK_TICKS, type KeptSocket } from '../../src/holder/socketKeeper.js';
import { ParseBudget, readPauseMs, UNVIEWED_PARSE_MS } from '../../src/holder/parseBudget.js';
import { StatePublisher, titleDelayMs, TITLE_REPORT_INTERVAL_MS } from '../../src/holder/statePublisher.js';
import { isPlausibleSize } from '../../src/holder/holder.js';
import type { Logger } from '../../src/log.js';
import type { HolderState } from '../../src/protocol/messages.js';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('Emitter', () => {
  it('calls listeners in order until each unsubscribes, and none once disposed', () => {
    const heard: string[] = [];
    const e = new Emitter<number>();
    const a = e.event((n) => heard.push(`a${n}`));
    e.event((n) => heard.push(`b${n}`));
    e.fire(1);
    a.dispose();
    e.fire(2);
    e.dispose();
    e.fire(3);
    expect(heard).toEqual(['a1', 'b1', 'b2']);
  });
});

describe('ChildSlot', () => {
  it('takes no input and names no incarnation while no child runs', () => {
    const slot = new ChildSlot();
    slot.inc = 'c1';
    expect(slot.write('x')).toBe(false);
    expect(slot.running).toBe(false);
    expect(slot.runningInc()).toBeNull();
    slot.sup = { ...slot.sup, lifecycle: 'running' };
    expect(slot.runningInc()).toBe('c1');
  });

  it('keeps an interrupt key typed outside the agent\'s turn, and forgets one typed during it', () => {
    const slot = new ChildSlot();
    slot.interruptTyped('ctrl+c', false, 100);
    expect(slot.interruptKeyAt).toEqual({ 'ctrl+c': 100 });
    slot.interruptTyped('ctrl+c', true, 200);
    expect(slot.interruptKeyAt).toEqual({});
  });
});

describe('after a socket restore', () => {
  it('a holder shut down meanwhile closes what was bound again; a closing tab notes nothing', () => {
    expect(afterRestore(true, { disposed: true, terminating: false })).toBe('close');
    expect(afterRestore(false, { disposed: true, terminating: false })).toBe('nothing');
    expect(afterRestore(true, { disposed: false, terminating: true })).toBe('nothing');
    expect(afterRestore(false, { disposed: false, terminating: false })).toBe('nothing');
    expect(afterRestore(true, { disposed: false, terminating: false })).toBe('note');
  });

  it('a bridge restore that finishes after dispose closes the bridge again and notes nothing', async () => {
    let finish: (ok: boolean) => void = () => undefined;
    const socket = (inPlace: boolean): KeptSocket & { closed: number } => ({
      closed: 0,
      inPlace: () => inPlace,
      restore: () => new Promise<boolean>((resolve) => (finish = resolve)),
      close() {
        this.closed++;
      },
    });
    const bridge = socket(false);
    const notes: unknown[] = [];
    const keeper = new SocketKeeper({ log: quiet, listener: socket(true), bridge, agent: { bridgeDown: false, note: (e) => void notes.push(e) }, child: { terminating: false } });
    keeper.tick();
    expect(notes).toEqual([expect.objectContaining({ k: 'bridge', up: false })]);
    keeper.dispose();
    finish(true);
    await vi.waitFor(() => expect(bridge.closed).toBe(1));
    expect(notes).toHaveLength(1);
  });

  it('looks at the holder\'s own socket every SOCKET_CHECK_TICKS ticks only', () => {
    let looks = 0;
    const listener: KeptSocket = { inPlace: () => (looks++, true), restore: async () => true, close: () => undefined };
    const bridge: KeptSocket = { inPlace: () => true, restore: async () => true, close: () => undefined };
    const keeper = new SocketKeeper({ log: quiet, listener, bridge, agent: { bridgeDown: false, note: () => undefined }, child: { terminating: false } });
    for (let i = 0; i < SOCKET_CHECK_TICKS * 2; i++) keeper.tick();
    expect(looks).toBe(2);
  });
});

describe('flow control', () => {
  it('a viewed tab never pauses its PTY; an unviewed one waits once its parse share is spent', () => {
    const budget = new ParseBudget();
    budget.spend(0, UNVIEWED_PARSE_MS + 1);
    expect(readPauseMs(true, budget, 5)).toBe(0);
    expect(readPauseMs(false, budget, 5)).toBeGreaterThan(0);
  });
});

describe('state reports', () => {
  it('a title waits out the rest of the interval since the last report', () => {
    expect(titleDelayMs(0, 10_000)).toBe(0);
    expect(titleDelayMs(1_000, 1_100)).toBe(TITLE_REPORT_INTERVAL_MS - 100);
  });

  it('titles coalesce into one report per interval, and none is armed after dispose', () => {
    vi.useFakeTimers();
    try {
      const sent: unknown[] = [];
      const state = { tabId: 't' } as HolderState;
      const child = { terminating: false };
      const publisher = new StatePublisher({ state: () => state }, { send: (m) => void sent.push(m) }, { sendToAttached: () => undefined }, child);
      publisher.titleChanged();
      publisher.titleChanged();
      vi.advanceTimersByTime(0);
      expect(sent).toHaveLength(1);
      publisher.titleChanged();
      publisher.dispose();
      vi.advanceTimersByTime(TITLE_REPORT_INTERVAL_MS);
      expect(sent).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a resize to a size no terminal has is ignored', () => {
    expect(isPlausibleSize(80, 24)).toBe(true);
    expect(isPlausibleSize(0, 24)).toBe(false);
    expect(isPlausibleSize(1001, 24)).toBe(false);
    expect(isPlausibleSize(80, 501)).toBe(false);
  });
});
