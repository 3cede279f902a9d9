import { describe, expect, it } from 'vitest';
import { resolveKeymap } from '../../src/keymap/resolve.js';
import { ACTIONS } from '../../src/keymap/actions.js';

function ok(overrides: Record<string, string | string[]>) {
  const r = resolveKeymap(overrides);
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

function error(overrides: Record<string, unknown>) {
  const r = resolveKeymap(overrides as Record<string, string | string[]>);
  if (!('error' in r)) throw new Error('expected an error');
  // One sentence: a capital, one full stop at the end.
  expect(r.error.message).toMatch(/^[A-Z][^\n]*\.$/);
  return r.error;
}

describe('resolveKeymap', () => {
  it('gives the defaults without overrides', () => {
    const keymap = ok({});
    expect(keymap.byKey.get('alt+a')).toBe('newTab');
    expect(keymap.byAction.get('detachTwice')).toEqual(['ctrl+c']);
    expect(keymap.byAction.size).toBeGreaterThan(20);
  });

  it('replaces an action default keys with a key or a list', () => {
    const keymap = ok({ newTab: 'ctrl+t', closeTab: ['alt+x', 'f8'] });
    expect(keymap.byKey.get('ctrl+t')).toBe('newTab');
    expect(keymap.byKey.has('alt+a')).toBe(false);
    expect(keymap.byAction.get('closeTab')).toEqual(['alt+x', 'f8']);
    expect(keymap.byKey.get('f8')).toBe('closeTab');
  });

  it('unbinds an action given an empty list', () => {
    const keymap = ok({ copyMode: [] });
    expect(keymap.byKey.has('alt+k')).toBe(false);
    expect(keymap.byAction.get('copyMode')).toEqual([]);
  });

  it('lets two actions swap keys', () => {
    const keymap = ok({ newTab: 'alt+w', closeTab: 'alt+a' });
    expect(keymap.byKey.get('alt+w')).toBe('newTab');
    expect(keymap.byKey.get('alt+a')).toBe('closeTab');
  });

  it('accepts the same key twice for one action', () => {
    expect(ok({ rename: ['f2', 'F2'] }).byAction.get('rename')).toEqual(['f2']);
  });

  it('rejects two actions on one key, naming both', () => {
    const e = error({ closeTab: 'alt+a' });
    expect(e.code).toBe('conflict');
    expect(e.message).toBe('Key alt+a is bound to both newTab and closeTab.');
    expect(e.actions).toEqual(['newTab', 'closeTab']);
    expect(error({ tabsPicker: 'alt+comma' }).message).toMatch(/prevTab and tabsPicker/);
    expect(error({ newTab: 'f9', closeTab: 'F9' }).code).toBe('conflict');
  });

  it('rejects an unknown action', () => {
    const e = error({ openTab: 'alt+o' });
    expect(e).toEqual({ code: 'unknownAction', message: 'Unknown action "openTab" in key bindings.' });
    expect(error({ constructor: 'alt+o' }).code).toBe('unknownAction');
  });

  it('rejects a key that does not parse, naming the action', () => {
    const e = error({ newTab: 'alt+nope' });
    expect(e.code).toBe('invalidKey');
    expect(e.message).toBe('Invalid key "alt+nope" for newTab: "nope" is not a key name or a single character.');
  });

  it('rejects a binding of the wrong type', () => {
    expect(error({ newTab: 5 })).toEqual({ code: 'invalidKey', message: 'The binding for newTab must be a key or a list of keys.' });
    expect(error({ newTab: ['alt+a', null] }).code).toBe('invalidKey');
  });
});

describe('chords and the prefix', () => {
  it('accepts a chord and lists its beginning as a key that waits', () => {
    const keymap = ok({ detach: 'ctrl+b d' });
    expect(keymap.byKey.get('ctrl+b d')).toBe('detach');
    expect(keymap.byKey.has('alt+e')).toBe(false);
    expect([...keymap.chordStarts]).toEqual(['ctrl+b']);
    expect(ok({ detach: '  ctrl+b   D ' }).byKey.get('ctrl+b d')).toBe('detach');
  });

  it('refuses a key that is bound and also begins a chord', () => {
    expect(error({ detach: 'ctrl+b d', newTab: 'ctrl+b' })).toEqual({
      code: 'conflict',
      message: 'Key ctrl+b is bound to newTab and also begins ctrl+b d of detach.',
      actions: ['newTab', 'detach'],
    });
    expect(error({ detach: 'ctrl+b nope' }).code).toBe('invalidKey');
  });

  it('with a prefix, every action with a key after the prefix is prefix then that key', () => {
    const keymap = ok({ prefix: 'ctrl+b' });
    expect(keymap.prefix).toBe('ctrl+b');
    expect(keymap.byKey.get('ctrl+b d')).toBe('detach');
    expect(keymap.byKey.get('ctrl+b c')).toBe('newTab');
    expect(keymap.byKey.get('ctrl+b ,')).toBe('rename');
    expect(keymap.byKey.get('ctrl+b 0')).toBe('jump10');
    expect(keymap.byKey.get('ctrl+b ctrl+b')).toBe('sendPrefix');
    // The contract's Ctrl+C twice stays; no Alt key is taken any more.
    expect(keymap.byKey.get('ctrl+c')).toBe('detachTwice');
    expect([...keymap.byKey.keys()].filter((k) => k.startsWith('alt+'))).toEqual([]);
    for (const a of ACTIONS) if ('afterPrefix' in a) expect(keymap.byAction.get(a.id)?.[0].startsWith('ctrl+b '), a.id).toBe(true);
  });

  it('an override still wins over the prefix, and a bad prefix is one sentence', () => {
    const keymap = ok({ prefix: 'ctrl+a', detach: 'alt+e' });
    expect(keymap.byKey.get('alt+e')).toBe('detach');
    expect(keymap.byKey.get('ctrl+a c')).toBe('newTab');
    expect(error({ prefix: 'ctrl+b d' }).message).toMatch(/^The prefix must be one key/);
    expect(error({ prefix: ['ctrl+b'] }).message).toBe('The prefix must be one key, such as "ctrl+b".');
    expect(error({ prefix: 'ctrl+c' }).message).toBe('Key ctrl+c is bound to detachTwice and also begins ctrl+c c of newTab.');
  });
});
