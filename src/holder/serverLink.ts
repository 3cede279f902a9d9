// The holder's link to the server (SPEC §5, §10): one authenticated connection at a time, fenced
// by epoch; the server's commands (controller, restart, resume, close) and its liveness pings.
// When the link drops, the holder looks for a server and starts a replacement for one that died.
import type { Connection } from '../protocol/connection.js';
import type { FromHolder, ToHolder } from '../protocol/messages.js';
import { unhandled } from '../protocol/schema.js';
import type { Logger } from '../log.js';
import { decideServerWatch, probeServer, retryDelayMs, startServerProcess, type ServerProbe } from './serverWatch.js';
import type { HolderInit } from '../protocol/holderInit.js';
import type { HolderStateView } from './holderState.js';
import type { ChildView } from './childSlot.js';
import type { DataClients } from './dataClients.js';
import type { SupervisedChild } from './supervisedChild.js';
import { Emitter } from '../emitter.js';
import { Timer, type Disposable } from '../disposable.js';

export interface ServerLinkDeps {
  readonly log: Logger;
  /** The profile's server socket, writer lock and profile; without them no server is replaced. */
  readonly init: Pick<HolderInit, 'epoch' | 'serverSocketPath' | 'writerLockPath' | 'profile'>;
  readonly view: Pick<HolderStateView, 'state'>;
  /** A closing tab looks for no server. */
  readonly child: Pick<ChildView, 'terminating'>;
  /** An attached client starts a replacement server itself; the controller the server chose is
   * theirs to hear of. */
  readonly clients: Pick<DataClients, 'anyAttached' | 'setController'>;
  /** The server's restart and resume commands. */
  readonly supervised: Pick<SupervisedChild, 'restart' | 'setResume'>;
  /** Looks at the server, and starts a replacement; the real ones unless a test's. */
  readonly probe?: (socketPath: string, lockPath?: string) => Promise<ServerProbe>;
  readonly startServer?: (profile: string) => void;
}

/** The server's connection, as the holder sees it. */
export type ServerConnection = Connection<ToHolder, FromHolder>;

export class ServerLink implements Disposable {
  private server: ServerConnection | null = null;
  /** Every authenticated server connection still open, linked or not yet (it links with its first
   * epoch): dispose closes them all. */
  private readonly open = new Set<ServerConnection>();
  private maxEpoch: number;
  /** The next look for a server after a loss. */
  private readonly lookTimer = new Timer();
  private readonly terminateAsked = new Emitter<number>();
  /** The server asked for the tab's close, with this grace window (ms). */
  readonly onTerminate = this.terminateAsked.event;
  private disposed = false;
  /** Server links lost so far: the grace timer of each loss knows whether a later one superseded it. */
  private losses = 0;
  /** The loss whose first look was logged: one `server-lost` each, whatever looks follow. */
  private lossLogged = 0;
  /** When this holder started servers, inside the automatic starts' window (SPEC §10). */
  private starts: number[] = [];

  constructor(private readonly deps: ServerLinkDeps) {
    this.maxEpoch = deps.init.epoch;
  }

  send(msg: FromHolder): void {
    this.server?.send(msg);
  }

  /** Closes the server's connection and stops looking for one; a server whose handshake finishes
   * later is closed at once. */
  dispose(): void {
    this.disposed = true;
    this.lookTimer.dispose();
    for (const conn of this.open) conn.close();
    this.open.clear();
    this.terminateAsked.dispose();
  }

  /** An authenticated server connection replaces the current one only with its first admitted
   * epoch: a superseded server that reconnects is refused and cannot displace its successor. */
  adopt(conn: ServerConnection): void {
    if (this.disposed) return conn.close();
    this.deps.log.info('server-connected');
    this.open.add(conn);
    conn.onClose(() => {
      this.open.delete(conn);
      if (this.server !== conn) return;
      this.server = null;
      this.watch();
    });
    conn.onMessage((m) => {
      if (this.server !== conn && 'epoch' in m) {
        if (!this.admitEpoch(m.epoch)) return conn.close();
        const previous = this.server;
        this.server = conn;
        previous?.close();
        // What changed since the state sent at connect went to the previous link.
        conn.send({ t: 'state', state: this.deps.view.state() });
      }
      this.onMessage(conn, m);
    });
    conn.send({ t: 'state', state: this.deps.view.state() });
  }

  private onMessage(conn: ServerConnection, msg: ToHolder): void {
    switch (msg.t) {
      case 'epoch':
        this.admitEpoch(msg.epoch);
        return;
      case 'ping':
        conn.send({ t: 'pong', n: msg.n });
        return;
      case 'setController': {
        if (!this.admitEpoch(msg.epoch)) return;
        const controller = { clientId: msg.clientId ?? null, rev: msg.rev };
        conn.send({ t: 'controllerSet', rev: controller.rev });
        this.deps.clients.setController(controller);
        return;
      }
      case 'terminate':
        if (!this.admitEpoch(msg.epoch)) return;
        this.terminateAsked.fire(msg.graceMs);
        return;
      case 'restartChild':
        if (!this.admitEpoch(msg.epoch)) return;
        this.deps.supervised.restart(msg.fresh, msg.force === true);
        return;
      case 'setResume': {
        if (!this.admitEpoch(msg.epoch)) return;
        this.deps.supervised.setResume(msg.resume);
        return;
      }
      default:
        unhandled(msg);
    }
  }

  /** Epoch fencing (SPEC §5): commands from a lower epoch than any seen are refused. */
  private admitEpoch(epoch: number): boolean {
    if (epoch < this.maxEpoch) {
      this.deps.log.warn('stale-epoch-refused', { epoch, maxEpoch: this.maxEpoch });
      return false;
    }
    this.maxEpoch = epoch;
    return true;
  }

  /** The server link dropped: with no client to do it, start a replacement for a server that
   * died, after a random 1–3 s, and never after a clean exit (SPEC §15); look again, backing off,
   * until a server links to this holder. */
  private watch(): void {
    if (!this.deps.init.serverSocketPath || !this.deps.init.profile || this.deps.child.terminating || this.disposed) return;
    // Each loss gets its own grace: a timer armed for an earlier loss, whose server was replaced
    // and lost again meanwhile, must not fire at once for the new loss and race the client.
    this.look(++this.losses, 0);
  }

  private look(loss: number, attempt: number): void {
    this.lookTimer.set(retryDelayMs(attempt), () => void this.lookNow(loss, attempt));
  }

  /** Whether a look for loss `loss` still matters: no later loss, no server, no close. */
  private current(loss: number): boolean {
    return loss === this.losses && !this.server && !this.deps.child.terminating && !this.disposed;
  }

  private async lookNow(loss: number, attempt: number): Promise<void> {
    const { init, log, clients } = this.deps;
    // An attached client starts the replacement itself, or it has stopped starting them (its
    // start budget is spent) and offers [r]: either way this holder starts none while it stays.
    if (!this.current(loss)) return;
    if (clients.anyAttached()) return this.look(loss, attempt + 1);
    const probe = await (this.deps.probe ?? probeServer)(init.serverSocketPath!, init.writerLockPath);
    // The link, a client or the close may have come while the probe ran.
    if (!this.current(loss)) return;
    if (clients.anyAttached()) return this.look(loss, attempt + 1);
    if (this.lossLogged !== loss) log.info('server-lost', { reason: probe });
    this.lossLogged = loss;
    const decision = decideServerWatch(probe, this.starts, Date.now(), this.deps.child.terminating);
    if (decision.action === 'stop') return;
    this.starts = decision.starts;
    if (decision.action === 'start') {
      log.warn('server-replace', { attempt });
      (this.deps.startServer ?? startRealServer)(init.profile!);
    }
    this.look(loss, attempt + 1);
  }
}

function startRealServer(profile: string): void {
  startServerProcess(process.argv[1], profile, process.env);
}
