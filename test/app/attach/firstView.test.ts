import { describe, expect, it } from 'vitest';
import { firstTab, onFirstViewRefused } from '../../../src/app/attach/firstView.js';
import { ServerError } from '../../../src/client/serverClient.js';

describe('firstTab', () => {
  const session = { sessionId: 's1', agent: 'claude', cwd: null };

  it('views the tab `a1 attach` names, before a session or the last viewed tab', () => {
    expect(firstTab({ viewTab: 't1', openSession: session })).toEqual({ kind: 'view', tabId: 't1' });
  });

  it('opens the session `a1 --session` names', () => {
    expect(firstTab({ openSession: session })).toEqual({ kind: 'openSession', session });
  });

  it('asks for the last viewed tab, or a new one, otherwise', () => {
    expect(firstTab({})).toEqual({ kind: 'ensureTab' });
  });
});

describe('onFirstViewRefused', () => {
  it('stays for a tab with no process to show, and says which keys help', () => {
    const refusal = onFirstViewRefused(new ServerError('holder-unavailable', 'The tab failed.'));
    expect(refusal).toEqual({ kind: 'stay', notice: 'The tab failed. r retries, f starts fresh, Alt+W closes it.' });
  });

  it('leaves on any other refusal or error', () => {
    expect(onFirstViewRefused(new ServerError('no-tab', 'No such tab.'))).toEqual({ kind: 'leave' });
    expect(onFirstViewRefused(new Error('boom'))).toEqual({ kind: 'leave' });
  });
});
