// The holder's link to the server (SPEC §5, §10): one authenticated connection at a time, fenced
// by epoch; the server's commands (controller, restart, resume, close) and its liveness pings.
// When the link drops, the holder looks for a server and starts a replacement for one that died.
import type { Connection } from '../protocol/connection.js';
import type { FromHolder, HolderState, ToHolder } from '../protocol/messages.js';
import { unhandled } from '../protocol/schema.js';
import type { Logger } from '../log.js';
import { decideServerWatch, probeServer, retryDelayMs, startServerProcess } from './serverWatch.js';
import type { Controller } from './dataClients.js';

export interface ServerLinkHost {
  readonly log: Logger;
  /** The profile's server socket, writer lock and profile; without them no server is replaced. */
  readonly serverSocketPath?: string;
  readonly writerLockPath?: string;
  readonly profile?: string;
  state(): HolderState;
  terminating(): boolean;
  /** An attached client starts a replacement server itself. */
  anyAttached(): boolean;
  /** Takes the controller the server chose and tells the viewing clients. */
  setController(controller: Controller): void;
  terminate(graceMs: number): void;
  restartChild(fresh: boolean, force: boolean): void;
  setResume(resume: unknown): void;
}

/** The server's connection, as the holder sees it. */
export type ServerConnection = Connection<ToHolder, FromHolder>;

export class ServerLink {
  private server: ServerConnection | null = null;
  /** Server links lost so far: the grace timer of each loss knows whether a later one superseded it. */
  private losses = 0;
  /** The loss whose first look was logged: one `server-lost` each, whatever looks follow. */
  private lossLogged = 0;
  /** When this holder started servers, inside the automatic starts' window (SPEC §10). */
  private starts: number[] = [];

  constructor(
    private maxEpoch: number,
    private readonly host: ServerLinkHost,
  ) {}

  send(msg: FromHolder): void {
    this.server?.send(msg);
  }

  close(): void {
    this.server?.close();
  }

  /** An authenticated server connection replaces the current one only with its first admitted
   * epoch: a superseded server that reconnects is refused and cannot displace its successor. */
  adopt(conn: ServerConnection): void {
    this.host.log.info('server-connected');
    conn.onClose(() => {
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
        conn.send({ t: 'state', state: this.host.state() });
      }
      this.onMessage(conn, m);
    });
    conn.send({ t: 'state', state: this.host.state() });
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
        this.host.setController(controller);
        return;
      }
      case 'terminate':
        if (!this.admitEpoch(msg.epoch)) return;
        this.host.terminate(msg.graceMs);
        return;
      case 'restartChild':
        if (!this.admitEpoch(msg.epoch)) return;
        this.host.restartChild(msg.fresh, msg.force === true);
        return;
      case 'setResume': {
        if (!this.admitEpoch(msg.epoch)) return;
        this.host.setResume(msg.resume);
        return;
      }
      default:
        unhandled(msg);
    }
  }

  /** Epoch fencing (SPEC §5): commands from a lower epoch than any seen are refused. */
  private admitEpoch(epoch: number): boolean {
    if (epoch < this.maxEpoch) {
      this.host.log.warn('stale-epoch-refused', { epoch, maxEpoch: this.maxEpoch });
      return false;
    }
    this.maxEpoch = epoch;
    return true;
  }

  /** The server link dropped: with no client to do it, start a replacement for a server that
   * died, after a random 1–3 s, and never after a clean exit (SPEC §15); look again, backing off,
   * until a server links to this holder. */
  private watch(): void {
    if (!this.host.serverSocketPath || !this.host.profile || this.host.terminating()) return;
    // Each loss gets its own grace: a timer armed for an earlier loss, whose server was replaced
    // and lost again meanwhile, must not fire at once for the new loss and race the client.
    this.look(++this.losses, 0);
  }

  private look(loss: number, attempt: number): void {
    const current = () => loss === this.losses && !this.server && !this.host.terminating();
    setTimeout(() => {
      if (!current()) return;
      // An attached client starts the replacement itself, or it has stopped starting them (its
      // start budget is spent) and offers [r]: either way this holder starts none while it stays.
      if (this.host.anyAttached()) return this.look(loss, attempt + 1);
      void probeServer(this.host.serverSocketPath!, this.host.writerLockPath).then((probe) => {
        if (!current()) return;
        if (this.host.anyAttached()) return this.look(loss, attempt + 1);
        if (this.lossLogged !== loss) this.host.log.info('server-lost', { reason: probe });
        this.lossLogged = loss;
        const decision = decideServerWatch(probe, this.starts, Date.now(), this.host.terminating());
        if (decision.action === 'stop') return;
        this.starts = decision.starts;
        if (decision.action === 'start') {
          this.host.log.warn('server-replace', { attempt });
          startServerProcess(process.argv[1], this.host.profile!, process.env);
        }
        this.look(loss, attempt + 1);
      });
    }, retryDelayMs(attempt)).unref();
  }
}
