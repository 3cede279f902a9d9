// The tab bridge (SPEC §7, §15): the child's own channel to report its agent's status and
// session id. Each child incarnation gets its own key, derived from the holder's bridge key, so a
// token from another tab or an earlier incarnation proves nothing here. No bridge message carries
// prompt, transcript or terminal text: the schema has no field for it.
import crypto from 'node:crypto';
import net from 'node:net';
import fs from 'node:fs';
import { Connection } from '../protocol/connection.js';
import { acceptHandshake } from '../protocol/handshake.js';
import { ProtocolError } from '../protocol/errors.js';
import { bridgeSchema } from '../protocol/messages.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';

/** The states `a1 status` may report (SPEC §8). */
export const AGENT_STATES = ['working', 'needs-input', 'idle', 'done', 'error', 'heartbeat', 'progress'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export interface BridgeReport {
  state: AgentState;
  sessionId: string | null;
  agent: string | null;
  name: string | null;
}

/** The key one child incarnation proves: HMAC(holder's bridge key, child incarnation). */
export function childBridgeKey(bridgeKey: Buffer, childInc: string): Buffer {
  return crypto.createHmac('sha256', bridgeKey).update('a1 bridge child\0').update(childInc).digest();
}

/** `A1_BRIDGE_TOKEN`: the child incarnation and its key, which `a1 status` splits again. */
export function bridgeToken(bridgeKey: Buffer, childInc: string): string {
  return `${childInc}.${childBridgeKey(bridgeKey, childInc).toString('base64url')}`;
}

export function parseBridgeToken(token: string): { childInc: string; key: Buffer } | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const key = Buffer.from(token.slice(dot + 1), 'base64url');
  return key.length === 32 ? { childInc: token.slice(0, dot), key } : null;
}

/** Bounds what a report may carry: ids and names are short, printable, single-line. */
const MAX_FIELD_CHARS = 200;
function cleanField(v: unknown): string | null {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_FIELD_CHARS) return null;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(v) ? null : v;
}

export class BridgeListener {
  private server: net.Server | null = null;
  /** Each `a1 status` is its own process and connection, so hooks fired close together can
   * arrive out of order; a report sent before the newest one admitted is stale and dropped. */
  private lastSentAt = -Infinity;
  private lastInc: string | null = null;

  constructor(
    private readonly socketPath: string,
    private readonly bridgeKey: Buffer,
    /** The current child incarnation; reports from any other are refused. */
    private readonly currentInc: () => string | null,
    private readonly onReport: (report: BridgeReport) => void,
    private readonly log: Logger,
  ) {}

  listen(): Promise<void> {
    try {
      fs.unlinkSync(this.socketPath);
    } catch {
      // Nothing stale.
    }
    return new Promise((resolve, reject) => {
      const server = net.createServer((s) => this.accept(s));
      server.once('error', reject);
      server.listen(this.socketPath, () => {
        server.off('error', reject);
        fs.chmodSync(this.socketPath, 0o600);
        server.on('error', (err) => this.log.warn('bridge-listen-error', { code: errorCode(err) }));
        this.server = server;
        resolve();
      });
    });
  }

  private accept(socket: net.Socket): void {
    const conn = new Connection(socket, bridgeSchema);
    let inc: string | null = null;
    acceptHandshake(conn, {
      role: 'bridge-holder',
      methods: ['status'],
      keyFor: (auth) => {
        const claimed = (auth as unknown as { childInc?: unknown }).childInc;
        if (auth.role !== 'bridge' || typeof claimed !== 'string') return new ProtocolError('auth', 'Not a bridge client.');
        if (claimed !== this.currentInc()) return new ProtocolError('auth', 'That incarnation has ended.');
        inc = claimed;
        return childBridgeKey(this.bridgeKey, claimed);
      },
    }).then(
      () => {
        conn.onMessage((msg) => {
          const m = msg as Record<string, unknown> & { t: string };
          if (m.t !== 'status') return;
          // A report that arrives after the incarnation it speaks for ended is dropped.
          if (inc !== this.currentInc() || !AGENT_STATES.includes(m.state as AgentState)) {
            conn.send({ t: 'statusAck', ok: false });
            return;
          }
          if (inc !== this.lastInc) {
            this.lastInc = inc;
            this.lastSentAt = -Infinity;
          }
          const sentAt = typeof m.sentAt === 'number' && Number.isFinite(m.sentAt) ? m.sentAt : null;
          if (sentAt !== null && sentAt < this.lastSentAt) {
            // Acknowledged: the sender did nothing wrong, it was merely overtaken.
            conn.send({ t: 'statusAck', ok: true });
            return;
          }
          if (sentAt !== null) this.lastSentAt = sentAt;
          this.onReport({ state: m.state as AgentState, sessionId: cleanField(m.sessionId), agent: cleanField(m.agent), name: cleanField(m.name) });
          conn.send({ t: 'statusAck', ok: true });
        });
      },
      (err) => {
        this.log.warn('bridge-refused', { code: err instanceof ProtocolError ? err.code : errorCode(err) });
        conn.close();
      },
    );
  }

  close(): void {
    this.server?.close();
    try {
      fs.unlinkSync(this.socketPath);
    } catch {
      // Already gone.
    }
  }
}
