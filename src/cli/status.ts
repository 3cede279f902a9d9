// `a1 status <state>` (SPEC §11): a child reports its agent's status and session id over the tab
// bridge. Outside a tab it does nothing and says so in one sentence.
import { connectUnix } from '../protocol/connection.js';
import { connectHandshake } from '../protocol/handshake.js';
import { bridgeSchema, type BridgeToChild, type BridgeToHolder } from '../protocol/messages.js';
import { parseBridgeToken } from '../protocol/bridgeToken.js';
import { AGENT_STATES } from '../status/agentState.js';

export const STATUS_STATES = AGENT_STATES;

/** How long a report may take: a hook must never hold its agent up for long. */
const STATUS_TIMEOUT_MS = 2_000;

export interface StatusArgs {
  state: string;
  sessionId?: string;
  agent?: string;
  name?: string;
  /** Apply only when sessionId is the tab's current session. */
  sameSession?: boolean;
  /** The agent that ran this hook (bin/a1-hook names its shell's parent and grandparent). */
  parents?: number[];
  /** This process was forked for the report (bin/a1-hook), so its pid orders it. */
  forked?: boolean;
}

export class StatusError extends Error {}

export async function sendStatus(env: NodeJS.ProcessEnv, args: StatusArgs): Promise<void> {
  const socket = env.A1_BRIDGE;
  const token = env.A1_BRIDGE_TOKEN ? parseBridgeToken(env.A1_BRIDGE_TOKEN) : null;
  if (!env.A1_TAB_ID || !socket || !token) throw new StatusError('status reports work only inside an a1 tab.');
  const conn = await connectUnix<BridgeToChild, BridgeToHolder>(socket, bridgeSchema, STATUS_TIMEOUT_MS).catch(() => {
    throw new StatusError("This tab's bridge is not answering.");
  });
  try {
    await connectHandshake(conn, { role: 'bridge', key: token.key, methods: ['status'], extra: { childInc: token.childInc }, timeoutMs: STATUS_TIMEOUT_MS }).catch(() => {
      throw new StatusError("This tab's bridge refused the report.");
    });
    const ack = new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => reject(new StatusError("This tab's bridge did not answer.")), STATUS_TIMEOUT_MS);
      conn.onMessage((m) => {
        if (m.t !== 'statusAck') return; // the one message a holder sends here
        clearTimeout(timer);
        resolve(m.ok);
      });
      conn.onClose(() => {
        clearTimeout(timer);
        reject(new StatusError("This tab's bridge closed."));
      });
    });
    // The process's pid and start, not the send time: an agent starts its hooks one after another
    // and pids are handed out in that order, so they order the events however fast each process
    // then connects (src/holder/bridge.ts isLaterReport). Only a process forked for its report
    // has a pid that says when the report was made.
    conn.send({
      t: 'status',
      state: args.state,
      sessionId: args.sessionId,
      agent: args.agent,
      name: args.name,
      pid: process.pid,
      startedAt: performance.timeOrigin,
      parents: args.parents,
      forked: args.forked,
      sameSession: args.sameSession,
    });
    if (!(await ack)) throw new StatusError("This tab's bridge refused the report.");
  } finally {
    conn.close();
  }
}

/** The pids bin/a1-hook found above itself (`A1_HOOK_PARENTS="ppid grandparent"`). */
function hookParents(env: NodeJS.ProcessEnv): number[] {
  return (env.A1_HOOK_PARENTS ?? '').split(' ').map(Number).filter((n) => Number.isSafeInteger(n) && n > 1);
}

/** A hook payload larger than this is not read whole: only a few small fields matter. */
const MAX_HOOK_PAYLOAD_BYTES = 4 * 1024 * 1024;

function readStdin(limit: number): Promise<string> {
  return new Promise((resolve) => {
    if (process.stdin.isTTY) return resolve('');
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => resolve(''));
  });
}

/**
 * `a1 status --hook <agent>:<Event> [payload]`: what `a1 hooks install` writes into an agent's
 * hooks. The payload is the hook's JSON (stdin for Claude Code hooks, the last argument for the
 * Codex notify program). It never fails its agent: outside a tab, on a payload it does not know,
 * or when the bridge does not answer, it does nothing and exits 0 (SPEC §15).
 */
export async function runStatusHook(env: NodeJS.ProcessEnv, spec: string, argPayload: string | undefined): Promise<void> {
  if (!env.A1_TAB_ID || !env.A1_BRIDGE || !env.A1_BRIDGE_TOKEN) return;
  const { reportForHook, HOOK_AGENTS } = await import('../status/hookEvents.js');
  const colon = spec.indexOf(':');
  const agent = spec.slice(0, colon);
  const event = spec.slice(colon + 1);
  if (colon <= 0 || !(HOOK_AGENTS as readonly string[]).includes(agent)) return;
  const text = argPayload ?? (await readStdin(MAX_HOOK_PAYLOAD_BYTES));
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return;
  }
  const report = reportForHook(agent as 'claude' | 'codex', event, payload);
  if (!report) return;
  try {
    await sendStatus(env, {
      state: report.state,
      sessionId: report.sessionId ?? undefined,
      agent,
      sameSession: report.sameSession,
      parents: hookParents(env),
      // bin/a1-hook names the parents of the process it forked for this report.
      forked: env.A1_HOOK_PARENTS !== undefined,
    });
  } catch {
    // The hook must never fail its agent; a missing bridge only degrades the chip.
  }
}
