// The holder's two socket paths, its own (viewing clients, a replacement server) and the tab's
// bridge, bound again within one heartbeat when they vanish (SPEC §4: a tmp cleaner may delete
// them). While the bridge is down the child's silence is not counted against it (SPEC §10:
// transport loss alone is no hang).
import type { Logger } from '../log.js';
import type { Disposable } from '../disposable.js';
import type { AgentStatus } from './agentStatus.js';
import type { ChildView } from './childSlot.js';

/** The holder's own socket path is looked at every this many ticks: SPEC §4 asks for it back
 * within one heartbeat (5 s), and a look at every tick was a fifth of a printing tab's idle CPU.
 * The bridge is looked at every tick: while it is down the agent's silence must not count. */
export const SOCKET_CHECK_TICKS = 5;

/** A socket path that can vanish and be bound again (UnixListener, BridgeListener). */
export interface KeptSocket {
  inPlace(): boolean;
  restore(): Promise<boolean>;
  close(): void;
}

/** What a restore means once its await is over: a holder that shut down meanwhile closes what
 * was bound again (nothing else would); a closing tab notes nothing. */
export function afterRestore(ok: boolean, now: { disposed: boolean; terminating: boolean }): 'close' | 'note' | 'nothing' {
  if (now.disposed) return ok ? 'close' : 'nothing';
  return ok && !now.terminating ? 'note' : 'nothing';
}

export interface SocketKeeperDeps {
  readonly log: Logger;
  readonly listener: KeptSocket;
  readonly bridge: KeptSocket;
  readonly agent: Pick<AgentStatus, 'bridgeDown' | 'note'>;
  readonly child: Pick<ChildView, 'terminating'>;
}

export class SocketKeeper implements Disposable {
  private ticks = 0;
  private bridgeRestoring = false;
  private disposed = false;

  constructor(private readonly deps: SocketKeeperDeps) {}

  /** One status tick. */
  tick(): void {
    if (++this.ticks % SOCKET_CHECK_TICKS === 0) this.keepSocket();
    this.keepBridge();
  }

  private keepBridge(): void {
    const { bridge, agent, child, log } = this.deps;
    if (this.disposed || this.bridgeRestoring || child.terminating || bridge.inPlace()) return;
    this.bridgeRestoring = true;
    if (!agent.bridgeDown) {
      log.warn('bridge-lost');
      agent.note({ k: 'bridge', up: false, at: Date.now() });
    }
    void bridge.restore().then((ok) => {
      this.bridgeRestoring = false;
      const next = afterRestore(ok, { disposed: this.disposed, terminating: child.terminating });
      if (next === 'close') return bridge.close();
      if (next !== 'note') return;
      log.info('bridge-restored');
      agent.note({ k: 'bridge', up: true, at: Date.now() });
    });
  }

  private keepSocket(): void {
    const { listener, child, log } = this.deps;
    if (this.disposed || child.terminating || listener.inPlace()) return;
    void listener.restore().then((ok) => {
      const next = afterRestore(ok, { disposed: this.disposed, terminating: false });
      if (next === 'close') return listener.close();
      if (next === 'note') log.info('socket-restored');
    });
  }

  dispose(): void {
    this.disposed = true;
  }
}
