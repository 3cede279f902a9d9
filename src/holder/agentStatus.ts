// The tab's agent as the holder knows it (SPEC §10): who it is and which session it works in (its
// bridge reports), its turn (reports and the controller's keys), and the chip glyph that follows
// from them and the clock (src/status/model.ts, a pure reducer).
import { INITIAL_STATUS, UNRESPONSIVE_AFTER_MS, glyphOf, heartbeatSilenceMs, reduceStatus, type AgentPhase, type StatusEvent, type StatusState } from '../status/model.js';
import { keyNamesOf, keyRulesFor } from '../status/agentKeys.js';
import type { Glyph } from '../status/glyphs.js';
import type { InputEvent } from '../input/events.js';
import type { AgentReport } from '../protocol/messages.js';
import type { BridgeReport } from './bridge.js';
import { promptRulesFor } from './pendingPrompt.js';
import type { KeyPhases } from './promptOffer.js';
import type { ChildView } from './childSlot.js';
import { Emitter } from '../emitter.js';

export interface StatusClock {
  /** Missed heartbeats this long show unresponsive. */
  unresponsiveMs?: number;
  /** A working agent with no progress this long shows stalled. */
  stallNoticeMs: number;
}

export class AgentStatus {
  private agent: AgentReport | null = null;
  /** Sessions known to be saved by their agent: one it worked in (a report other than idle), or
   * one this holder resumed. Only these are told to the server of an agent that saves a session
   * at its first prompt (resume authority is made from what the server is told). */
  private readonly savedSessions = new Set<string>();
  private seq = 0;
  /** The agent's status from structured events only. */
  private status: StatusState = INITIAL_STATUS;
  private current: Glyph = 'starting';
  private readonly glyphChanged = new Emitter();
  /** The glyph changed outside a report: the viewers should hear of it. */
  readonly onGlyphChange = this.glyphChanged.event;

  constructor(
    kind: string | null,
    private readonly clock: StatusClock,
    /** Only while the child runs has the agent a turn. */
    private readonly child: Pick<ChildView, 'lifecycle'>,
  ) {
    if (kind) this.agent = { kind, sessionId: null, state: null, name: null, seq: 0 };
  }

  get glyph(): Glyph {
    return this.current;
  }

  get kind(): string | undefined {
    return this.agent?.kind ?? undefined;
  }

  get viewed(): boolean {
    return this.status.viewed;
  }

  /** An agent runs here: the tab has an agent kind, or its child reported over the bridge. */
  get isAgent(): boolean {
    return this.agent !== null;
  }

  /** The agent's turn runs (mid-turn, as reports and keys tell it). */
  get working(): boolean {
    return this.phase() === 'working';
  }

  get bridgeDown(): boolean {
    return this.status.bridgeDown;
  }

  /** How long a child that heartbeats has been silent; null for one that never did. */
  heartbeatSilenceMs(now: number): number | null {
    return heartbeatSilenceMs(this.status, now);
  }

  /** A status fact; the viewers hear of a glyph it changes. */
  note(event: StatusEvent): void {
    this.status = reduceStatus(this.status, event);
    this.refresh();
  }

  /** A status fact whose state the holder sends itself right after. */
  noteQuietly(event: StatusEvent): void {
    this.status = reduceStatus(this.status, event);
    this.current = glyphOf(this.status, this.glyphClock());
  }

  /** The clock-driven glyphs (unresponsive, stalled). */
  refresh(): void {
    const glyph = glyphOf(this.status, this.glyphClock());
    if (glyph === this.current) return;
    this.current = glyph;
    this.glyphChanged.fire();
  }

  private glyphClock() {
    return { now: Date.now(), unresponsiveMs: this.clock.unresponsiveMs ?? UNRESPONSIVE_AFTER_MS, stallMs: this.clock.stallNoticeMs };
  }

  /** Applies an agent's report; false for one about another session (Codex's title thread). */
  report(report: BridgeReport): boolean {
    const prev = this.agent;
    if (report.sameSession && (report.sessionId === null || report.sessionId !== prev?.sessionId)) return false;
    this.agent = {
      kind: report.agent ?? prev?.kind ?? 'generic',
      sessionId: report.sessionId ?? prev?.sessionId ?? null,
      state: null,
      name: report.name ?? prev?.name ?? null,
      seq: ++this.seq,
      groups: report.groups.length > 0 ? report.groups : (prev?.groups ?? []),
    };
    if (report.state !== 'idle' && this.agent.sessionId) this.savedSessions.add(this.agent.sessionId);
    this.noteQuietly({ k: 'report', state: report.state, at: Date.now() });
    return true;
  }

  /** A session resumed is one its agent had saved. */
  resumed(sessionId: string): void {
    this.savedSessions.add(sessionId);
  }

  /** `f`: the agent's session is abandoned. */
  forgetSession(): void {
    if (this.agent) this.agent = { ...this.agent, sessionId: null };
  }

  /** What the controller's keys tell about the agent's turn (src/status/agentKeys.ts): only
   * while a turn runs or a dialog waits, and only key names, never text. Returns the agent's
   * phase before and after each event. */
  readKeys(events: InputEvent[]): KeyPhases {
    const rules = keyRulesFor(this.agent?.kind);
    const at = Date.now();
    const phases = events.map((ev) => {
      const before = this.phase();
      if (before === 'working' || before === 'needs-input') {
        for (const key of keyNamesOf(ev)) this.status = reduceStatus(this.status, { k: 'key', key, rules, at });
      }
      return { before, after: this.phase() };
    });
    this.refresh();
    return phases;
  }

  /** The agent as the holder's state tells it. */
  snapshot(): AgentReport | null {
    return this.agent && { ...this.agent, sessionId: this.reportedSession(), state: this.phase() };
  }

  /** The agent's turn as a1 understands it (reports and keys), while its child runs and reports. */
  private phase(): AgentPhase | null {
    return this.status.bridged && this.child.lifecycle === 'running' ? this.status.phase : null;
  }

  /** The agent's session as the server may record it: none yet while an agent that saves its
   * session at its first prompt has not saved it (a1 would resume a session that is not there). */
  private reportedSession(): string | null {
    const id = this.agent?.sessionId ?? null;
    if (id === null || !promptRulesFor(this.agent?.kind).savesSessionAtFirstPrompt) return id;
    return this.savedSessions.has(id) ? id : null;
  }
}
