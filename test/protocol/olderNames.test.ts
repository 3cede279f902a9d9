// What an a1 from before issue 29 sends is read as today's names where it is decoded: each
// schema declares the older forms of its messages, the frame decoder applies them, and the one
// reply with tab rows (`list`) is read through currentResult.
import { describe, expect, it } from 'vitest';
import { controlSchema, dataSchema, holderSchema, type HolderState, type ListingEntry, type TabInfo } from '../../src/protocol/messages.js';
import { currentHolderState, currentListingEntry, currentName, currentResult, currentTabInfo } from '../../src/protocol/olderNames.js';
import { encodeFrame, FrameDecoder } from '../../src/protocol/frame.js';
import { withHandshake } from '../../src/protocol/handshake.js';
import { currentForm, defineSchema, mergeSchemas, type Message, type Schema } from '../../src/protocol/schema.js';
import { GLYPHS } from '../../src/status/glyphs.js';
import { LIFECYCLES } from '../../src/tabLifecycle.js';

/** `message` sent as a frame and decoded with `schema`, as a Connection does. */
function decoded(schema: Schema, message: object): Message {
  const [result] = new FrameDecoder(withHandshake(schema)).push(encodeFrame(message));
  if (!result.ok) throw result.error;
  return result.msg;
}

const olderTab = { id: 't1', ord: 0, lifecycle: 'suspended', glyph: 'suspended' };
const olderState = { tabId: 't1', lifecycle: 'running', glyph: 'needsInput', cols: 80, rows: 24 };

describe('older names', () => {
  it('reads suspended as asleep and needsInput as needs-input, and every name of today as itself', () => {
    expect(currentName('suspended')).toBe('asleep');
    expect(currentName('needsInput')).toBe('needs-input');
    for (const name of [...LIFECYCLES, ...GLYPHS]) expect(currentName(name)).toBe(name);
    expect(currentName('toString')).toBe('toString');
  });

  it('rewrites a tab, a listing row and a holder state from an older peer, and leaves today\'s as they are', () => {
    const tab = { id: 't', lifecycle: 'suspended', glyph: 'suspended' } as TabInfo;
    expect(currentTabInfo(tab)).toMatchObject({ lifecycle: 'asleep', glyph: 'asleep' });
    const today = { id: 't', lifecycle: 'running' } as TabInfo;
    expect(currentTabInfo(today)).toBe(today);
    expect(currentTabInfo(today)).not.toHaveProperty('glyph');
    const row = { id: 't', status: 'suspended', glyph: 'needsInput', attention: 'needs-input' } as ListingEntry;
    expect(currentListingEntry(row)).toMatchObject({ status: 'asleep', glyph: 'needs-input', attention: 'needs-input' });
    expect(currentListingEntry({ ...row, glyph: null }).glyph).toBeNull();
    expect(currentHolderState({ lifecycle: 'running', glyph: 'needsInput' } as HolderState)).toMatchObject({ lifecycle: 'running', glyph: 'needs-input' });
  });
});

describe('older names where a frame is decoded', () => {
  it('the control plane: a snapshot, a tab, a tab status and a tab list reach their reader in today\'s words', () => {
    expect(decoded(controlSchema, { t: 'snapshot', rev: 1, epoch: 1, serverPid: 9, tabs: [olderTab], notices: [] })).toMatchObject({
      tabs: [{ id: 't1', lifecycle: 'asleep', glyph: 'asleep' }],
    });
    expect(decoded(controlSchema, { t: 'tab', rev: 2, tab: olderTab })).toMatchObject({ tab: { lifecycle: 'asleep', glyph: 'asleep' } });
    expect(decoded(controlSchema, { t: 'tabStatus', tab: olderTab })).toMatchObject({ tab: { lifecycle: 'asleep', glyph: 'asleep' } });
    expect(decoded(controlSchema, { t: 'tabs', rev: 3, tabs: [olderTab, { ...olderTab, id: 't2', lifecycle: 'running', glyph: 'needsInput' }] })).toMatchObject({
      tabs: [{ lifecycle: 'asleep' }, { lifecycle: 'running', glyph: 'needs-input' }],
    });
  });

  it("a holder's state, to the server and to a client alike", () => {
    expect(decoded(holderSchema, { t: 'state', state: olderState })).toMatchObject({ state: { glyph: 'needs-input', lifecycle: 'running' } });
    expect(decoded(dataSchema, { t: 'state', state: olderState })).toMatchObject({ state: { glyph: 'needs-input' } });
    // The holder's own wire merges both planes (src/holder/peers.ts): the form survives the merge.
    expect(decoded(mergeSchemas(holderSchema, dataSchema), { t: 'state', state: olderState })).toMatchObject({ state: { glyph: 'needs-input' } });
  });

  it("leaves what a form does not expect to its reader, and messages without a form untouched", () => {
    expect(decoded(controlSchema, { t: 'tabs', rev: 3, tabs: 'not a list' })).toMatchObject({ tabs: 'not a list' });
    expect(decoded(controlSchema, { t: 'tabs', rev: 3, tabs: [7, null] })).toMatchObject({ tabs: [7, null] });
    expect(decoded(controlSchema, { t: 'notice', text: 'suspended' })).toEqual({ t: 'notice', text: 'suspended' });
  });

  it("gives today's messages back as they came, with nothing copied (every frame of today's peers passes here)", () => {
    const state = { t: 'state', state: { ...olderState, glyph: 'needs-input' } };
    expect(currentForm(holderSchema, state)).toBe(state);
    const tabs = { t: 'tabs', rev: 3, tabs: [{ ...olderTab, lifecycle: 'asleep', glyph: 'asleep' }] };
    expect(currentForm(controlSchema, tabs)).toBe(tabs);
    const listing = { server: { pid: 9, epoch: 1 }, tabs: [{ id: 't1', status: 'asleep', glyph: 'none' }] };
    expect(currentResult('list', listing)).toBe(listing);
  });

  it('the list reply: its rows in today\'s words; any other reply as it came', () => {
    const listing = { server: { pid: 9, epoch: 1 }, tabs: [{ id: 't1', status: 'suspended', glyph: 'needsInput' }] };
    expect(currentResult('list', listing)).toMatchObject({ server: { pid: 9 }, tabs: [{ status: 'asleep', glyph: 'needs-input' }] });
    const sessions = { sessions: [{ status: 'suspended' }] };
    expect(currentResult('sessions', sessions)).toBe(sessions);
    expect(currentResult('list', null)).toBeNull();
  });
});

describe('declared older forms', () => {
  it('are refused for a type the schema lacks, and two different ones for one type cannot merge', () => {
    const same = (m: Message) => m;
    expect(() => defineSchema({ a: {} }, { b: same } as never)).toThrow(/"b"/);
    const one = defineSchema({ a: {} }, { a: same });
    expect(() => mergeSchemas(one, defineSchema({ a: {} }, { a: (m: Message) => ({ ...m }) }))).toThrow(/two different older forms/);
    expect(() => mergeSchemas(one, defineSchema({ a: {} }, { a: same }))).not.toThrow();
  });
});
