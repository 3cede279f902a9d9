// The page's WebSocket (src/web/protocol.ts): both directions are declared once, and each side
// refuses a frame that does not match: the web process what a page sends (readPageMessage), the
// page what the web process sends (readWebMessage). Every message either side really sends passes.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { readPageMessage } from '../../src/web/inputCheck.js';
import { readWebMessage, type PageToWeb, type WebTab, type WebToPage } from '../../src/web/protocol.js';
import { webTab } from '../../src/web/pageLink.js';
import { composeEvents, keysToEvents, quickKeyEvents } from '../../src/web/page/keys.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { DEFAULT_MODES, type SurfacePatch } from '../../src/surface/types.js';
import type { TabInfo } from '../../src/protocol/messages.js';
import type { InputEvent } from '../../src/input/events.js';

function codeOf(result: unknown): string | null {
  return result instanceof ProtocolError ? result.code : null;
}

const TAB_INFO: TabInfo = {
  id: 't1', name: 'build', nameSource: 'auto', ord: 0, cwd: '/tmp', lifecycle: 'running', holderPid: 10, childPid: 11, exit: null, title: 'make',
  glyph: 'needs-input', agent: { kind: 'claude', state: 'needs-input', sessionId: 's1' },
};

const PATCH: SurfacePatch = {
  full: true,
  cols: 20,
  rows: 2,
  lines: [{ y: 0, runs: [{ s: 'hello', fg: -1, bg: -1, fl: 0 }] }],
  cursor: { x: 5, y: 0, visible: true, shape: 'block', blink: false },
  modes: { ...DEFAULT_MODES },
  title: '',
};

describe('what a page sends, as the web process reads it', () => {
  it('passes every message the page sends', () => {
    const sent: PageToWeb[] = [
      { t: 'view', tabId: 't1' },
      { t: 'claim' },
      { t: 'input', events: keysToEvents('ls\r') },
      { t: 'input', events: quickKeyEvents('ctrl-c') },
      { t: 'input', events: composeEvents('make test'), scripted: true },
      { t: 'resize', cols: 120, rows: 40 },
    ];
    for (const m of sent) expect(readPageMessage(JSON.stringify(m)), m.t).toEqual(m);
  });

  it('refuses a missing field, a wrong type, an unknown type, input a holder does not take, a size out of bounds', () => {
    const refused: [unknown, string][] = [
      [{ t: 'view' }, 'bad-field'],
      [{ t: 'view', tabId: 7 }, 'bad-field'],
      [{ t: 'resize', cols: 80 }, 'bad-field'],
      [{ t: 'resize', cols: 80.5, rows: 24 }, 'bad-field'],
      [{ t: 'resize', cols: 0, rows: 24 }, 'bad-field'],
      [{ t: 'resize', cols: 80, rows: 100_000 }, 'bad-field'],
      [{ t: 'input', events: [{ k: 'key', key: 'rm -rf' }] }, 'bad-field'],
      [{ t: 'input', events: [] }, 'bad-field'],
      [{ t: 'input', events: [{ k: 'text', s: 'x' }], scripted: 'yes' }, 'bad-field'],
      [{ t: 'input' }, 'bad-field'],
      [{ t: 'kill', tabId: 't1' }, 'unknown-type'],
      [{ tabId: 't1' }, 'bad-field'],
      [['view', 't1'], 'not-object'],
    ];
    for (const [m, code] of refused) expect(codeOf(readPageMessage(JSON.stringify(m))), JSON.stringify(m)).toBe(code);
    expect(codeOf(readPageMessage('{"t":"view"'))).toBe('malformed');
  });

  it('never quotes what the person typed in its refusal', () => {
    const refused = readPageMessage(JSON.stringify({ t: 'input', events: [{ k: 'text', s: 'hunter2' }, { k: 'nope' }] })) as ProtocolError;
    expect(refused.message).not.toContain('hunter2');
  });
});

describe('what the web process sends, as the page reads it', () => {
  it('passes every message the web process sends', () => {
    const sent: WebToPage[] = [
      { t: 'hello', clientId: 'web-abc' },
      { t: 'tabs', tabs: [webTab(TAB_INFO), webTab({ ...TAB_INFO, id: 't2', glyph: undefined, agent: null, kind: undefined })] },
      { t: 'tabs', tabs: [] },
      { t: 'viewing', tabId: 't1' },
      { t: 'viewing', tabId: null },
      { t: 'surface', tabId: 't1', patch: PATCH },
      { t: 'control', tabId: 't1', control: 'you' },
      { t: 'notice', text: 'Read-only: take control to type.' },
      { t: 'notice', text: '' },
    ];
    for (const m of sent) expect(readWebMessage(JSON.stringify(m)), m.t).toEqual(m);
  });

  it('refuses a missing field, a wrong type, an unknown type, a malformed tab, a viewing without its tab', () => {
    const tab = webTab(TAB_INFO);
    const { name: _name, ...nameless } = tab;
    const refused: [unknown, string][] = [
      [{ t: 'hello' }, 'bad-field'],
      [{ t: 'tabs', tabs: 'all' }, 'bad-field'],
      [{ t: 'tabs', tabs: [tab, nameless] }, 'bad-field'],
      [{ t: 'tabs', tabs: [{ ...tab, glyph: 3 }] }, 'bad-field'],
      [{ t: 'tabs', tabs: [null] }, 'not-object'],
      [{ t: 'viewing' }, 'bad-field'],
      [{ t: 'surface', tabId: 't1', patch: 'hello' }, 'bad-field'],
      [{ t: 'surface', patch: PATCH }, 'bad-field'],
      [{ t: 'control', tabId: 't1', control: true }, 'bad-field'],
      [{ t: 'notice', text: null }, 'bad-field'],
      [{ t: 'eval', code: 'alert(1)' }, 'unknown-type'],
      ['notice', 'not-object'],
    ];
    for (const [m, code] of refused) expect(codeOf(readWebMessage(JSON.stringify(m))), JSON.stringify(m)).toBe(code);
    expect(codeOf(readWebMessage('{"t":'))).toBe('malformed');
  });

  it('takes its types from the schemas', () => {
    expectTypeOf<Extract<WebToPage, { t: 'tabs' }>['tabs']>().toEqualTypeOf<WebTab[]>();
    expectTypeOf<Extract<WebToPage, { t: 'surface' }>['patch']>().toEqualTypeOf<SurfacePatch>();
    expectTypeOf<Extract<WebToPage, { t: 'viewing' }>['tabId']>().toEqualTypeOf<string | null>();
    expectTypeOf<Extract<PageToWeb, { t: 'input' }>['events']>().toEqualTypeOf<InputEvent[]>();
    expectTypeOf<Extract<PageToWeb, { t: 'resize' }>['rows']>().toEqualTypeOf<number>();
    expectTypeOf<PageToWeb['t']>().toEqualTypeOf<'view' | 'claim' | 'input' | 'resize'>();
  });
});
