// Who may connect to a holder (SPEC §5, §6): the server, by the holder key, and viewing clients,
// each by a ticket the server issued for this tab and this holder, usable once.
import type net from 'node:net';
import { Connection } from '../protocol/connection.js';
import { acceptHandshake } from '../protocol/handshake.js';
import { ProtocolError } from '../protocol/errors.js';
import { holderSchema, dataSchema } from '../protocol/messages.js';
import { mergeSchemas } from '../protocol/schema.js';
import { verifyTicket, UsedTickets, ticketProofKey, isWellFormedTicket, type Ticket } from '../security.js';
import type { ServerConnection } from './serverLink.js';
import type { DataConnection } from './dataClients.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { PROMPT_OFFER_METHOD } from './promptOffer.js';
import type { Disposable } from '../disposable.js';

const holderWire = mergeSchemas(holderSchema, dataSchema);

export interface PeerKeys {
  tabId: string;
  holderInc: string;
  holderKey: Buffer;
  ticketKey: Buffer;
}

export interface Peers {
  server(conn: ServerConnection): void;
  client(conn: DataConnection, clientId: string, methods: readonly string[]): void;
}

export class PeerGate implements Disposable {
  private readonly usedTickets = new UsedTickets();
  /** Connections whose handshake has not finished: closed at dispose, so none outlives the holder. */
  private readonly pending = new Set<Connection>();
  private disposed = false;

  constructor(
    private readonly keys: PeerKeys,
    private readonly log: Logger,
    private readonly peers: Peers,
  ) {}

  /** Authenticates a new connection and hands it to the server link or the viewing clients. */
  accept(socket: net.Socket): void {
    if (this.disposed) return void socket.destroy();
    const conn = new Connection(socket, holderWire);
    this.pending.add(conn);
    const { tabId, holderInc, holderKey, ticketKey } = this.keys;
    let ticket: Ticket | null = null;
    acceptHandshake(conn, {
      role: 'holder',
      methods: ['surface', 'input', 'resize', 'history', PROMPT_OFFER_METHOD],
      keyFor: (auth) => {
        if (auth.role === 'server') return holderKey;
        if (auth.role === 'data') {
          const t = auth.ticket;
          if (!t || typeof t !== 'object') return new ProtocolError('auth', 'A data connection needs a ticket.');
          if (!isWellFormedTicket(t)) return new ProtocolError('auth', 'Ticket refused (malformed).');
          const verdict = verifyTicket(ticketKey, t, Date.now(), { tabId, holderInc });
          if (!verdict.ok) return new ProtocolError('auth', `Ticket refused (${verdict.code}).`);
          if (!this.usedTickets.use(t.mac, t.expiresAt, Date.now())) return new ProtocolError('auth', 'Ticket already used.');
          ticket = t;
          return ticketProofKey(ticketKey, t);
        }
        return new ProtocolError('auth', 'Unknown role.');
      },
    }).then(
      (hs) => {
        this.pending.delete(conn);
        // One socket serves both planes (holderWire); the authenticated role says which this
        // connection speaks, and each side's switch ignores the other plane's messages.
        if (hs.peerRole === 'server') this.peers.server(conn as unknown as ServerConnection);
        else if (ticket) this.peers.client(conn as unknown as DataConnection, ticket.clientId, hs.peerMethods);
        else conn.close();
      },
      (err) => {
        this.pending.delete(conn);
        this.log.warn('handshake-refused', { code: err instanceof ProtocolError ? err.code : errorCode(err) });
        conn.close();
      },
    );
  }

  dispose(): void {
    this.disposed = true;
    for (const conn of this.pending) conn.close();
    this.pending.clear();
  }
}
