// `a1 events`: what changed between two listings, as events (issue 18). Pure.
import { describe, expect, it } from 'vitest';
import { diffTabs, EMPTY_WATCH, eventLine, type WatchState } from '../../src/status/scriptEvents.js';
import { scriptTab, type ScriptTab } from '../../src/status/scripting.js';

const tab = (id: string, position: number, over: Partial<Parameters<typeof scriptTab>[0]> = {}): ScriptTab =>
  scriptTab({ id, name: id, lifecycle: 'running', cwd: '/w', holderPid: 1, childPid: 2, agent: null, glyph: 'none', ...over }, position);

const kinds = (events: { event: string; change?: string }[]) => events.map((e) => (e.change ? `${e.event}:${e.change}` : e.event));

describe('diffTabs', () => {
  it('says created, renamed, closed, and moved only for a change of place among the kept tabs', () => {
    let s: WatchState = diffTabs(EMPTY_WATCH, [tab('a', 1), tab('b', 2), tab('c', 3)]).state;
    let d = diffTabs(s, [tab('a', 1), tab('c', 2)]);
    expect(kinds(d.events)).toEqual(['tab-closed']);
    s = d.state;
    d = diffTabs(s, [tab('c', 1), tab('a', 2, { name: 'renamed' }), tab('n', 3)]);
    expect(d.events.map((e) => [e.event, 'tab' in e ? e.tab.id : null])).toEqual([
      ['tab-moved', 'c'],
      ['tab-renamed', 'a'],
      ['tab-moved', 'a'],
      ['tab-created', 'n'],
    ]);
  });

  it('tells started, asleep, woke, exited, restarted and failed apart, through starting', () => {
    let s = diffTabs(EMPTY_WATCH, [tab('a', 1, { lifecycle: 'starting', glyph: null })]).state;
    const step = (over: Partial<Parameters<typeof scriptTab>[0]>) => {
      const d = diffTabs(s, [tab('a', 1, over)]);
      s = d.state;
      return kinds(d.events).filter((k) => k.startsWith('lifecycle'));
    };
    expect(step({})).toEqual(['lifecycle:started']);
    expect(step({ lifecycle: 'asleep', holderPid: null, childPid: null })).toEqual(['lifecycle:asleep']);
    expect(step({ lifecycle: 'starting' })).toEqual([]);
    expect(step({ childPid: 5 })).toEqual(['lifecycle:woke']);
    expect(step({ childPid: 6 })).toEqual(['lifecycle:restarted']);
    expect(step({ lifecycle: 'exited', exit: { code: 0, signal: null } })).toEqual(['lifecycle:exited']);
    expect(step({ lifecycle: 'running', childPid: 7 })).toEqual(['lifecycle:restarted']);
    expect(step({ lifecycle: 'failed', glyph: 'error' })).toEqual(['lifecycle:failed']);
  });

  it('names the status fields that changed', () => {
    const s = diffTabs(EMPTY_WATCH, [tab('a', 1, { agent: { kind: 'claude', state: 'working', sessionId: 's' }, glyph: 'working' })]).state;
    const d = diffTabs(s, [tab('a', 1, { agent: { kind: 'claude', state: 'needs-input', sessionId: 's' }, glyph: 'needs-input', title: 'asks' })]);
    expect(d.events).toEqual([expect.objectContaining({ event: 'status', changed: ['glyph', 'attention', 'agent', 'title'] })]);
    expect(d.events[0]).toMatchObject({ tab: { glyph: 'needs-input', attention: 'needs-input' } });
    expect(diffTabs(d.state, d.state.tabs).events).toEqual([]);
  });

  it('writes one versioned line per event, its name first', () => {
    expect(eventLine({ event: 'server-stopped', reason: 'gone' }, 5)).toBe('{"version":1,"event":"server-stopped","at":5,"reason":"gone"}\n');
  });
});
