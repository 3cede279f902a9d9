// Real Unix sockets for the protocol tests: a private temp directory per test, servers that
// record every socket they accept, and cleanup that ends all of them.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { connectUnix, Connection } from '../../src/protocol/connection.js';
import type { Schema } from '../../src/protocol/schema.js';

/**
 * For connects and handshakes a test expects to finish, or to fail for another reason than time.
 * The product's 2 s deadlines are for live peers; a test process on a busy machine can stall
 * longer than that, and timers run before the I/O that arrived meanwhile.
 */
export const PATIENT_TIMEOUT_MS = 60_000;

export interface SocketLab {
  dir: string;
  /** A socket path inside the lab's directory. */
  path(name: string): string;
  /** Listens on `name`; `onSocket` gets every accepted socket. */
  listen(name: string, onSocket: (socket: net.Socket) => void): Promise<string>;
  /** A framed connection, closed at cleanup. */
  connect(socketPath: string, schema: Schema, opts?: { maxFrameBytes?: number }): Promise<Connection>;
  /** A framed connection over a socket this lab tracks (so a test can also watch its raw bytes). */
  wrap(socket: net.Socket, schema: Schema, opts?: { maxFrameBytes?: number }): Connection;
  /** A raw connected socket (no framing). */
  rawConnect(socketPath: string): Promise<net.Socket>;
  /** Destroys every socket and server it made and removes the directory. */
  cleanup(): Promise<void>;
}

export function socketLab(): SocketLab {
  // Short prefix: Unix socket paths are limited to ~107 bytes.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1p-'));
  const servers: net.Server[] = [];
  const connections: Connection[] = [];
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket): net.Socket => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
  return {
    dir,
    path: (name) => path.join(dir, name),
    async listen(name, onSocket) {
      const socketPath = path.join(dir, name);
      const server = net.createServer((socket) => onSocket(track(socket)));
      servers.push(server);
      server.listen(socketPath);
      await once(server, 'listening');
      return socketPath;
    },
    async connect(socketPath, schema, opts) {
      const conn = await connectUnix(socketPath, schema, PATIENT_TIMEOUT_MS, opts);
      connections.push(conn);
      return conn;
    },
    wrap(socket, schema, opts) {
      const conn = new Connection(track(socket), schema, opts);
      connections.push(conn);
      return conn;
    },
    async rawConnect(socketPath) {
      const socket = track(net.createConnection({ path: socketPath }));
      await once(socket, 'connect');
      return socket;
    },
    async cleanup() {
      for (const conn of connections) conn.close();
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The next value `subscribe` reports, as a promise. */
export function next<T>(subscribe: (fn: (value: T) => void) => unknown): Promise<T> {
  return new Promise((resolve) => {
    subscribe(resolve);
  });
}
