// A tab's status (SPEC §8, §10, issue 5): a pure reducer over structured events, and the chip
// glyph from the result and the clock. Inputs are only what the bridge reports, which keys the
// controller sent (classified, never their text) and process-level facts; never screen contents.
//
// Rules, one per line:
// - A process fact overrides the agent: starting → dim spinner, exited (0) → none, crashed/failed → ✗,
//   asleep → ◌. `starting` (or `running` after the child was gone) begins a new incarnation and
//   forgets everything the old one reported.
// - Reports while the child is exited, crashed, failed or asleep are dropped: they can only come
//   from an incarnation that has ended.
// - A tab whose current incarnation never reported shows process-level states only (running = none).
// - working → spinner; needs-input → ?; error (the turn failed) → ✗; idle → none.
// - done → ✓ only if the turn finished while no client viewed the tab; finished while viewed → idle.
// - Viewing the tab clears ✓ (it becomes idle); nothing else but a new turn, an error or a new
//   incarnation clears it; an idle report (SessionEnd, idle notification) keeps ✓ and ✗.
// - Keys the controller sent (src/status/agentKeys.ts, per agent kind and version) while working:
//   an interrupt key → idle (no hook fires on Esc or Ctrl+C).
// - While needs-input, keys move and answer the permission dialog: an approving answer → working,
//   a denying one → idle (Claude Code fires no hook on "no"; an agent that carries on reports its
//   next tool call, which sets working again).
// - Every key outside working/needs-input, and every key that answers nothing, changes nothing:
//   keys alone can never produce ✓ or ?.
// - unresponsive (!) once the child has sent a heartbeat and then none for unresponsiveMs; any
//   report counts as a sign of life. Hook-only agents never heartbeat and are never unresponsive.
// - While the tab's bridge socket is gone, silence is the transport's, not the child's: it is not
//   counted, and once the bridge is back it is counted from then (SPEC §10).
// - stalled (⧗) while working with no working/progress report (or approve) for stallMs.
// - Precedence: process fact > unresponsive > the agent's phase (stalled refines working).
import type { Glyph } from './glyphs.js';
import type { AgentState } from './agentState.js';
import { DIALOG_OPENED, answerKey, type AgentKeyRules, type DialogState } from './agentKeys.js';

/** SPEC §10: a child that reports over the bridge and misses heartbeats this long is unresponsive. */
export const UNRESPONSIVE_AFTER_MS = 30_000;

export type ProcessFact = 'starting' | 'running' | 'exited' | 'crashed' | 'failed' | 'asleep';
/** The agent's own state, as far as the bridge and admitted keys tell it. */
export type AgentPhase = 'idle' | 'working' | 'needs-input' | 'done' | 'error';

export type StatusEvent =
  | { k: 'report'; state: AgentState; at: number }
  /** One key the controller sent (a name from keyNamesOf), read by the tab's agent's rules. */
  | { k: 'key'; key: string; rules: AgentKeyRules; at: number }
  | { k: 'process'; what: ProcessFact; at: number }
  /** Whether any client views the tab now (decided by the server from its clients' views). */
  | { k: 'viewed'; viewed: boolean; at: number }
  /** Whether the tab's bridge socket is there to take reports (the holder re-creates a lost one). */
  | { k: 'bridge'; up: boolean; at: number };

export interface StatusState {
  readonly process: ProcessFact;
  /** Meaningful only once `bridged`. */
  readonly phase: AgentPhase;
  /** The current incarnation has reported over the bridge at least once. */
  readonly bridged: boolean;
  readonly viewed: boolean;
  /** Last sign of life, armed by the first heartbeat; null: this incarnation never heartbeats. */
  readonly heartbeatAt: number | null;
  /** Last progress while working: the stall clock. */
  readonly progressAt: number;
  /** The open permission dialog's position, while needs-input. */
  readonly dialog: DialogState | null;
  /** The last turn's end was reported and no turn began since: a second report of that end
   * (Codex sends its notify besides its Stop hook, and a late one arrives after the view moved
   * on) must not bring back a ✓ the user already saw. */
  readonly turnEnded: boolean;
  /** The bridge socket is gone: no report can arrive, so silence says nothing of the child. */
  readonly bridgeDown: boolean;
}

export const INITIAL_STATUS: StatusState = Object.freeze({
  process: 'starting',
  phase: 'idle',
  bridged: false,
  viewed: false,
  heartbeatAt: null,
  progressAt: 0,
  dialog: null,
  turnEnded: false,
  bridgeDown: false,
});

const LIVE: ReadonlySet<ProcessFact> = new Set(['starting', 'running']);

function newIncarnation(s: StatusState, process: ProcessFact, at: number): StatusState {
  // The bridge is the holder's, not the incarnation's: its state carries over.
  return { ...INITIAL_STATUS, process, viewed: s.viewed, bridgeDown: s.bridgeDown, progressAt: at };
}

function onReport(s: StatusState, state: AgentState, at: number): StatusState {
  if (!LIVE.has(s.process)) return s;
  const base: StatusState = {
    ...s,
    process: 'running', // a report proves the child runs
    bridged: true,
    heartbeatAt: state === 'heartbeat' || s.heartbeatAt !== null ? at : null,
  };
  switch (state) {
    case 'heartbeat':
      return base;
    case 'progress':
      return { ...base, progressAt: at };
    case 'working':
      return { ...base, phase: 'working', progressAt: at, dialog: null, turnEnded: false };
    case 'needs-input':
      // A second report of the same dialog (a hook and a notification) keeps its position.
      return { ...base, phase: 'needs-input', dialog: s.phase === 'needs-input' && s.dialog ? s.dialog : DIALOG_OPENED, turnEnded: false };
    case 'done':
      if (s.bridged && s.turnEnded) return base;
      return { ...base, phase: s.viewed ? 'idle' : 'done', dialog: null, turnEnded: true };
    case 'error':
      return { ...base, phase: 'error', dialog: null };
    case 'idle':
      return { ...base, phase: s.bridged && (s.phase === 'done' || s.phase === 'error') ? s.phase : 'idle', dialog: null };
  }
}

function onKey(s: StatusState, key: string, rules: AgentKeyRules, at: number): StatusState {
  if (!s.bridged || !LIVE.has(s.process)) return s;
  if (s.phase === 'working') return rules.interrupt.includes(key) ? { ...s, phase: 'idle' } : s;
  if (s.phase !== 'needs-input') return s;
  const { state, verdict } = answerKey(rules.dialog, s.dialog ?? DIALOG_OPENED, key);
  if (verdict === 'approve') return { ...s, phase: 'working', progressAt: at, dialog: null, turnEnded: false };
  if (verdict === 'deny') return { ...s, phase: 'idle', dialog: null };
  return state === s.dialog ? s : { ...s, dialog: state };
}

function onProcess(s: StatusState, what: ProcessFact, at: number): StatusState {
  if (what === 'starting') return newIncarnation(s, 'starting', at);
  if (what === 'running') return LIVE.has(s.process) ? { ...s, process: 'running' } : newIncarnation(s, 'running', at);
  return { ...s, process: what };
}

export function reduceStatus(s: StatusState, e: StatusEvent): StatusState {
  switch (e.k) {
    case 'report':
      return onReport(s, e.state, e.at);
    case 'key':
      return onKey(s, e.key, e.rules, e.at);
    case 'process':
      return onProcess(s, e.what, e.at);
    case 'viewed':
      return { ...s, viewed: e.viewed, phase: e.viewed && s.phase === 'done' ? 'idle' : s.phase };
    case 'bridge':
      if (!e.up) return { ...s, bridgeDown: true };
      return { ...s, bridgeDown: false, heartbeatAt: s.heartbeatAt === null ? null : e.at };
  }
}

export interface GlyphClock {
  now: number;
  unresponsiveMs: number;
  stallMs: number;
}

/** How long a heartbeating child has been silent; null when it never heartbeats or its bridge is
 * gone (never restart it for that silence). */
export function heartbeatSilenceMs(s: StatusState, now: number): number | null {
  if (s.heartbeatAt === null || s.process !== 'running' || s.bridgeDown) return null;
  return Math.max(0, now - s.heartbeatAt);
}

export function glyphOf(s: StatusState, clock: GlyphClock): Glyph {
  switch (s.process) {
    case 'starting':
      return 'starting';
    case 'exited':
      return 'none';
    case 'crashed':
    case 'failed':
      return 'error';
    case 'asleep':
      return 'asleep';
    case 'running':
      break;
  }
  if (!s.bridged) return 'none';
  const silence = heartbeatSilenceMs(s, clock.now);
  if (silence !== null && silence >= clock.unresponsiveMs) return 'unresponsive';
  switch (s.phase) {
    case 'working':
      return clock.now - s.progressAt >= clock.stallMs ? 'stalled' : 'working';
    case 'needs-input':
      return 'needs-input';
    case 'done':
      return 'done';
    case 'error':
      return 'error';
    case 'idle':
      return 'none';
  }
}

/** Glyphs of a tab whose close would stop work or drop a question: Alt+W asks first (SPEC §8). */
export function isBusyGlyph(glyph: string | undefined): boolean {
  return glyph === 'working' || glyph === 'needs-input' || glyph === 'stalled';
}

/** Why a tab wants its user, as `a1 tabs --json` says it: it asks (`?`), it finished unseen (`✓`),
 * or it failed (`✗`); null when it wants nothing. */
export type Attention = 'needs-input' | 'done' | 'error';

export function attentionOf(glyph: string | undefined): Attention | null {
  switch (glyph) {
    case 'needs-input':
      return 'needs-input';
    case 'done':
      return 'done';
    case 'error':
      return 'error';
    default:
      return null;
  }
}
