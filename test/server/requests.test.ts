// The control-request table (issue 17): the server handles exactly the declared ops, each handler's
// own refusals carry codes the table declares for that op, and the client's `request` is typed by
// the table (the type checks below are compiled by `tsc --noEmit`, which covers tests).
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_ERRORS, type RequestOp } from '../../src/protocol/requests.js';
import { REQUEST_HANDLERS, servedOps } from '../../src/server/requests/index.js';
import type { RequestContext, WireArgs } from '../../src/server/requests/context.js';
import { AgentStarts } from '../../src/server/agentStarts.js';
import { boot } from '../../src/server/core/index.js';
import { defaultConfig } from '../../src/config.js';
import { resolvePaths } from '../../src/paths.js';
import { Registry } from '../../src/store/registry.js';
import type { ServerClient } from '../../src/client/serverClient.js';
import { makeHome } from '../helpers/home.js';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** What a handler sees of a server that just booted with no tabs, over a real registry. */
function bootedContext(): RequestContext {
  const home = makeHome();
  closers.push(() => home.cleanup());
  const paths = resolvePaths({ env: home.env, profile: 'default' });
  fs.mkdirSync(paths.stateDir, { recursive: true });
  const { registry } = Registry.open({ stateDir: paths.stateDir });
  closers.unshift(() => registry.close());
  const config = defaultConfig({});
  const { state } = boot('test', Date.now(), { epoch: 0, rev: 0, tabs: {} }, undefined);
  return {
    state: () => state,
    registry,
    config,
    paths,
    secret: Buffer.alloc(32),
    epoch: 1,
    startedAt: Date.now(),
    agents: new AgentStarts(config, registry),
    holderState: () => null,
    liveState: () => null,
    orphanReport: () => ({ count: 0, oldestAgeMs: null }),
    attachedClients: () => 0,
    closeEnding: () => undefined,
    hostStopped: () => Promise.resolve(),
    reloadConfig: () => ({ kept: false, changed: [], problems: [] }),
  };
}

function refusalCode<K extends RequestOp>(op: K, args: WireArgs<K>): string | null {
  const outcome = REQUEST_HANDLERS[op].take(bootedContext(), args);
  return 'error' in outcome ? outcome.error.code : null;
}

describe('the control-request table', () => {
  it('the server handles exactly the declared ops; a lacked op is left out of those served', () => {
    expect(Object.keys(REQUEST_HANDLERS).sort()).toEqual(Object.keys(REQUEST_ERRORS).sort());
    expect(servedOps(['rename'])).not.toContain('rename');
    expect(servedOps(['rename'])).toHaveLength(Object.keys(REQUEST_HANDLERS).length - 1);
  });

  it("a handler's own refusals carry codes its op declares", () => {
    const refused: [RequestOp, string | null][] = [
      ['create', refusalCode('create', { agent: 'no-such-agent' })],
      ['create', refusalCode('create', { name: '\u0001' })],
      ['ensureTab', refusalCode('ensureTab', { name: '\u0001' })],
      ['openSession', refusalCode('openSession', {})],
      ['openSession', refusalCode('openSession', { sessionId: 'never-seen' })],
      ['rename', refusalCode('rename', { tabId: 't', name: '' })],
    ];
    for (const [op, code] of refused) {
      expect(code, op).not.toBeNull();
      expect(REQUEST_ERRORS[op] as readonly string[], `${op}: ${code}`).toContain(code);
    }
  });

  it('an op that needs the core hands it the request, its arguments coerced', () => {
    const ctx = bootedContext();
    expect(REQUEST_HANDLERS.rename.take(ctx, { tabId: 't1', name: ' work ', expectedRev: 3 })).toEqual({ req: { op: 'rename', tabId: 't1', name: 'work', expectedRev: 3 }, name: 'work' });
    expect(REQUEST_HANDLERS.restart.take(ctx, { tabId: 't1', fresh: 'yes' })).toEqual({ req: { op: 'restart', tabId: 't1', fresh: false, force: false } });
    expect(REQUEST_HANDLERS.list.take(ctx, {})).toEqual({ result: { server: { pid: process.pid, epoch: 1 }, tabs: [] } });
  });
});

/** Compiled, never run: the client's request is typed by the table. */
export function requestTypes(c: ServerClient): void {
  // @ts-expect-error an op the table does not declare
  void c.request('nope');
  // @ts-expect-error rename needs a name
  void c.request('rename', { tabId: 't' });
  // @ts-expect-error busy needs a tab
  void c.request('busy');
  const busy: Promise<{ busy: boolean }> = c.request('busy', { tabId: 't' });
  const listed: Promise<{ tabs: { id: string }[] }> = c.request('list');
  void busy;
  void listed;
}
