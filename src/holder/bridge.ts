// The tab bridge (SPEC §7, §15): the child's own channel to report its agent's status and
// session id. Each child incarnation gets its own key, derived from the holder's bridge key, so a
// token from another tab or an earlier incarnation proves nothing here. No bridge message carries
// prompt, transcript or terminal text: the schema has no field for it.
import net from 'node:net';
import { Connection } from '../protocol/connection.js';
import { UnixListener } from '../protocol/unixListener.js';
import { acceptHandshake } from '../protocol/handshake.js';
import { ProtocolError } from '../protocol/errors.js';
import { bridgeSchema, type BridgeToChild, type BridgeToHolder } from '../protocol/messages.js';
import { pidMax, processGroupOf } from '../proc.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { isAgentState, type AgentState } from '../status/agentState.js';
import { childBridgeKey } from '../protocol/bridgeToken.js';


export interface BridgeReport {
  state: AgentState;
  sessionId: string | null;
  agent: string | null;
  name: string | null;
  /** Apply only when sessionId is the tab's current agent session. */
  sameSession: boolean;
  /** The process groups of the reporting process and of the agent that ran it (AgentReport.groups). */
  groups: number[];
}

/** Where pids wrap when /proc does not say (macOS wraps at 99,999, many Linux systems at 32,768). */
const DEFAULT_PID_MAX = 32_768;
/** Hook reports from processes started further apart than this are ordered by their start times;
 * closer ones (an agent's hooks fired back to back, whose Node starts race) by their pids, which
 * the agent had handed out in event order. No machine hands out half a pid space this fast. */
export const PID_ORDER_WINDOW_MS = 5_000;

export interface ReportOrigin {
  pid: number;
  /** The process's start (its Node's), wall-clock ms. */
  startedAt: number;
  /** The process was forked for this report (bin/a1-hook backgrounds each one), so its pid was
   * handed out when the report was made. Any other `a1 status` may run in a process forked long
   * before: a shell runs a subshell's last command in the subshell's own process. */
  forked: boolean;
}

/** True when `pid` was handed out after `than`, in a pid space that wraps at `max`: the gap
 * forward from `than` is less than half the space. */
export function isLaterPid(pid: number, than: number, max: number): boolean {
  const gap = (((pid - than) % max) + max) % max;
  return gap !== 0 && gap < max / 2;
}

/** Whether a report from `a` is newer than one from `b`: by pid when both processes were forked
 * for their reports and started close together, else by start time. */
export function isLaterReport(a: ReportOrigin, b: ReportOrigin, pidMax: number): boolean {
  if (a.forked && b.forked && Math.abs(a.startedAt - b.startedAt) <= PID_ORDER_WINDOW_MS) return isLaterPid(a.pid, b.pid, pidMax);
  return a.startedAt > b.startedAt;
}

/** A hook names at most its shell's parent and grandparent. */
const MAX_PARENTS = 4;

function isPid(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

/** The process groups of those of `pids` that still run, each once. */
function groupsOf(pids: readonly number[]): number[] {
  return [...new Set(pids.map(processGroupOf).filter((g): g is number => g !== null && g > 0))];
}

/** Bounds what a report may carry: ids and names are short, printable, single-line. */
const MAX_FIELD_CHARS = 200;
function cleanField(v: unknown): string | null {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_FIELD_CHARS) return null;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(v) ? null : v;
}

export class BridgeListener {
  private readonly socket: UnixListener;
  /** Each `a1 status` is its own process and connection, so hooks fired close together can
   * arrive out of order; a report from a process started before the newest one admitted is stale
   * and dropped. */
  private last: ReportOrigin | null = null;
  private lastInc: string | null = null;
  private readonly pidMax = pidMax() ?? DEFAULT_PID_MAX;

  constructor(
    socketPath: string,
    private readonly bridgeKey: Buffer,
    /** The current child incarnation; reports from any other are refused. */
    private readonly currentInc: () => string | null,
    /** Whether a reporting process runs in the tab (a shared agent daemon started in another
     * tab holds that tab's token, and must not report into it). */
    private readonly runsInTab: (pids: number[]) => boolean,
    /** Applies a report; false when the tab ignored it (another thread's turn), which then
     * orders nothing: an ignored report must not make the tab's own earlier-started report look
     * overtaken. */
    private readonly onReport: (report: BridgeReport) => boolean,
    private readonly log: Logger,
  ) {
    this.socket = new UnixListener(socketPath, (s) => this.accept(s), {
      error: (err) => this.log.warn('bridge-listen-error', { code: errorCode(err) }),
      restoreFailed: (err) => this.log.warn('bridge-restore-failed', { code: errorCode(err) }),
    });
  }

  listen(): Promise<void> {
    return this.socket.listen();
  }

  /** Whether the socket path still names the socket this listener bound (SPEC §4: a socket path
   * can vanish, for example when a tmp cleaner removes it). */
  inPlace(): boolean {
    return this.socket.inPlace();
  }

  /** Binds the socket path again after it vanished; false while something keeps it from binding. */
  restore(): Promise<boolean> {
    return this.socket.restore();
  }

  private accept(socket: net.Socket): void {
    const conn = new Connection<BridgeToHolder, BridgeToChild>(socket, bridgeSchema);
    let inc: string | null = null;
    acceptHandshake(conn, {
      role: 'bridge-holder',
      methods: ['status'],
      keyFor: (auth) => {
        const claimed = auth.childInc;
        if (auth.role !== 'bridge' || typeof claimed !== 'string') return new ProtocolError('auth', 'Not a bridge client.');
        if (claimed !== this.currentInc()) return new ProtocolError('auth', 'That incarnation has ended.');
        inc = claimed;
        return childBridgeKey(this.bridgeKey, claimed);
      },
    }).then(
      () => {
        conn.onMessage((m) => {
          if (m.t !== 'status') return; // the one message a child sends here
          // A report that arrives after the incarnation it speaks for ended is dropped.
          if (inc !== this.currentInc() || !isAgentState(m.state)) {
            conn.send({ t: 'statusAck', ok: false });
            return;
          }
          if (inc !== this.lastInc) {
            this.lastInc = inc;
            this.last = null;
          }
          const pid = isPid(m.pid) ? m.pid : null;
          const parents = Array.isArray(m.parents) ? m.parents.filter(isPid).slice(0, MAX_PARENTS) : [];
          if (pid !== null && !this.runsInTab([pid, ...parents])) {
            this.log.warn('bridge-report-from-outside');
            conn.send({ t: 'statusAck', ok: false });
            return;
          }
          const origin = pid !== null && typeof m.startedAt === 'number' && Number.isFinite(m.startedAt) ? { pid, startedAt: m.startedAt, forked: m.forked === true } : null;
          if (origin !== null && this.last !== null && !isLaterReport(origin, this.last, this.pidMax)) {
            // Acknowledged: the sender did nothing wrong, it was merely overtaken.
            conn.send({ t: 'statusAck', ok: true });
            return;
          }
          const applied = this.onReport({
            state: m.state,
            sessionId: cleanField(m.sessionId),
            agent: cleanField(m.agent),
            name: cleanField(m.name),
            sameSession: m.sameSession === true,
            groups: pid === null ? [] : groupsOf([pid, ...parents]),
          });
          if (applied && origin !== null) this.last = origin;
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
    this.socket.close();
  }
}
