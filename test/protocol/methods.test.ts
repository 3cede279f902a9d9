import { describe, expect, it } from 'vitest';
import { controlMethods, LEGACY_CONTROL_OPS, PeerMethods } from '../../src/protocol/methods.js';

describe('PeerMethods', () => {
  it('serves exactly the ops a server names, and has its plane-wide methods', () => {
    const peer = new PeerMethods(controlMethods(['topology', 'tickets'], ['create', 'list']));
    expect(peer.serves('create')).toBe(true);
    expect(peer.serves('list')).toBe(true);
    expect(peer.serves('rename')).toBe(false);
    expect(peer.has('topology')).toBe(true);
    expect(peer.has('history')).toBe(false);
  });

  it('takes a server that names no op for one from before ops were named: it serves the generation-1 ops', () => {
    const legacy = new PeerMethods(['topology', 'tickets', 'host']);
    for (const op of LEGACY_CONTROL_OPS) expect(legacy.serves(op)).toBe(true);
    expect(legacy.serves('someFutureOp')).toBe(false);
  });

  it('never mistakes a plane-wide method for an op', () => {
    const peer = new PeerMethods(controlMethods(['rename'], ['list']));
    expect(peer.serves('rename')).toBe(false);
    expect(peer.serves('list')).toBe(true);
  });
});
