// `a1 status <state>` (SPEC §11): a child reports its agent's status and session id over the tab
// bridge. Outside a tab it does nothing and says so in one sentence.
import { connectUnix } from '../protocol/connection.js';
import { connectHandshake } from '../protocol/handshake.js';
import { bridgeSchema } from '../protocol/messages.js';
import { parseBridgeToken, AGENT_STATES } from '../holder/bridge.js';

export const STATUS_STATES = AGENT_STATES;

/** How long a report may take: a hook must never hold its agent up for long. */
const STATUS_TIMEOUT_MS = 2_000;

export interface StatusArgs {
  state: string;
  sessionId?: string;
  agent?: string;
  name?: string;
}

export class StatusError extends Error {}

export async function sendStatus(env: NodeJS.ProcessEnv, args: StatusArgs): Promise<void> {
  const socket = env.A1_BRIDGE;
  const token = env.A1_BRIDGE_TOKEN ? parseBridgeToken(env.A1_BRIDGE_TOKEN) : null;
  if (!env.A1_TAB_ID || !socket || !token) throw new StatusError('a1 status works only inside an a1 tab.');
  const conn = await connectUnix(socket, bridgeSchema, STATUS_TIMEOUT_MS).catch(() => {
    throw new StatusError("This tab's bridge is not answering.");
  });
  try {
    await connectHandshake(conn, { role: 'bridge', key: token.key, methods: ['status'], extra: { childInc: token.childInc }, timeoutMs: STATUS_TIMEOUT_MS }).catch(() => {
      throw new StatusError("This tab's bridge refused the report.");
    });
    const ack = new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => reject(new StatusError("This tab's bridge did not answer.")), STATUS_TIMEOUT_MS);
      conn.onMessage((m) => {
        if ((m as { t: string }).t !== 'statusAck') return;
        clearTimeout(timer);
        resolve((m as unknown as { ok: boolean }).ok);
      });
      conn.onClose(() => {
        clearTimeout(timer);
        reject(new StatusError("This tab's bridge closed."));
      });
    });
    conn.send({ t: 'status', state: args.state, sessionId: args.sessionId, agent: args.agent, name: args.name });
    if (!(await ack)) throw new StatusError("This tab's bridge refused the report.");
  } finally {
    conn.close();
  }
}
