// The one way a1 serves on a socket path (SPEC §4): unlink what a dead predecessor left, listen,
// make the socket owner-only (inside its 0700 directory), and bind it again when the path
// vanished (logind or a tmp cleaner deletes files under /tmp while a1 runs). Transport-specific
// on purpose: named pipes would be another module with the same shape.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface ListenerEvents {
  /** The bound listener failed (not a bind: listen and restore report those). */
  error(err: Error): void;
  /** A restore failed; only the first failure of an outage is reported, not one a tick. */
  restoreFailed(err: unknown): void;
}

export class UnixListener {
  private server: net.Server | null = null;
  /** The inode of the socket file this listener bound: the path is ours while it names it. */
  private ino: number | null = null;
  private restoreFailing = false;
  private restoring = false;

  constructor(
    readonly socketPath: string,
    private readonly onConnection: (socket: net.Socket) => void,
    private readonly events: ListenerEvents,
  ) {}

  /** Binds the path, removing whatever is there first: only the path's owner calls this (for
   * server.sock, the lease holder). */
  listen(): Promise<void> {
    try {
      fs.unlinkSync(this.socketPath);
    } catch {
      // Nothing stale to remove.
    }
    return new Promise((resolve, reject) => {
      const server = net.createServer((socket) => this.onConnection(socket));
      server.once('error', reject);
      server.listen(this.socketPath, () => {
        server.off('error', reject);
        // Owner-only, inside a 0700 directory (SPEC §4).
        fs.chmodSync(this.socketPath, 0o600);
        this.ino = fs.statSync(this.socketPath).ino;
        server.on('error', (err) => this.events.error(err));
        this.server = server;
        resolve();
      });
    });
  }

  /** Whether the path still names the socket this listener bound. */
  inPlace(): boolean {
    try {
      const st = fs.lstatSync(this.socketPath);
      return st.isSocket() && st.ino === this.ino;
    } catch {
      return false;
    }
  }

  /** Binds the path again after it vanished (its directory too); false while something keeps it
   * from binding, or while an earlier restore is still under way. */
  async restore(): Promise<boolean> {
    if (this.restoring) return false;
    this.restoring = true;
    // Closed first: closing a listener removes its path (libuv unlinks it), which must not take
    // the new socket along.
    this.server?.close();
    this.server = null;
    this.ino = null;
    try {
      fs.mkdirSync(path.dirname(this.socketPath), { recursive: true, mode: 0o700 });
      await this.listen();
      this.restoreFailing = false;
      return true;
    } catch (err) {
      if (!this.restoreFailing) this.events.restoreFailed(err);
      this.restoreFailing = true;
      return false;
    } finally {
      this.restoring = false;
    }
  }

  /** Stops listening and removes the path while it names this socket; a path something else
   * bound since is left alone. */
  close(): void {
    if (!this.inPlace()) {
      // Closing would unlink the path, which is no longer ours; the descriptor ends with the process.
      this.server?.unref();
      return;
    }
    this.server?.close();
    this.server = null;
    try {
      fs.unlinkSync(this.socketPath);
    } catch {
      // Already gone (closing the listener removed it).
    }
  }
}
