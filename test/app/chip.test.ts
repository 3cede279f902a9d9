import { describe, it, expect } from 'vitest';
import { glyphFor } from '../../src/app/ui/chip.js';
import type { TabInfo } from '../../src/protocol/messages.js';

const tab = (lifecycle: string, exit: TabInfo['exit'] = null): TabInfo => ({
  id: 't', name: 'x', nameSource: 'default', ord: 0, cwd: '/', lifecycle, holderPid: 1, childPid: 2, exit, title: '',
});

describe('glyphFor', () => {
  it('maps process-level states to glyphs', () => {
    expect(glyphFor(tab('running'))).toBe('none');
    expect(glyphFor(tab('starting'))).toBe('starting');
    expect(glyphFor(tab('failed'))).toBe('error');
    expect(glyphFor(tab('asleep'))).toBe('asleep');
    expect(glyphFor(tab('exited', { code: 0, signal: null }))).toBe('none');
    expect(glyphFor(tab('exited', { code: 2, signal: null }))).toBe('error');
    expect(glyphFor(tab('exited', { code: null, signal: 9 }))).toBe('error');
  });
});
