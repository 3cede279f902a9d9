// From an agent's own hook payload to the report `a1 status` sends over the tab bridge (issue 5).
// Pure. Only the event name, a few discriminating fields and the session id are read: prompt,
// transcript, tool and assistant text never leave the payload, and the result has no field for them.
//
// Claude Code (hook JSON on stdin; common fields session_id, transcript_path, cwd, permission_mode,
// hook_event_name; subagent payloads add agent_id/agent_type):
//   SessionStart          → idle, with the session id (source startup | resume | clear);
//                           source "compact" → progress: auto-compaction can fire mid-turn
//   UserPromptSubmit      → working
//   PreToolUse            → working   (any tool call proves the main turn runs: this is what
//   PostToolUse           → working    converges the chip after a permission prompt answered by
//   PostToolUseFailure    → working    keys the holder did not classify, or a missed submit)
//   PermissionRequest     → needs-input
//   Notification          → permission_prompt, elicitation_dialog → needs-input (both wait on the user);
//                           idle_prompt → idle (Claude has been waiting at its prompt; the model keeps
//                           ✓ and ✗ through it); auth_success and unknown types → ignored
//   Stop                  → done (a turn finished)
//   StopFailure           → error (the turn ended on an API error)
//   SessionEnd            → idle
//   PreCompact/PostCompact → progress
//   SubagentStart/SubagentStop, any payload with agent_id, unknown events → ignored (null)
// Codex hooks (hooks.json; same common fields plus model and turn_id): SessionStart, UserPromptSubmit,
// PreToolUse, PostToolUse, PermissionRequest, Stop, StopFailure, PreCompact, PostCompact map as above;
// Interrupt (Esc or Ctrl+C ended the turn) and SessionEnd → idle. Codex 0.169 has no StopFailure: a
// model request that failed is PostModelRequest with status "failed" → error; "completed" → working.
// Codex notify (event "notify"; the JSON is notify's last argument): type "agent-turn-complete" →
// done for "thread-id", applied only when that thread is the tab's session; other types → ignored.
import type { AgentState } from './agentState.js';

export const HOOK_AGENTS = ['claude', 'codex'] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];

export interface HookReport {
  state: AgentState;
  sessionId: string | null;
  /** Only for the tab's current session: Codex's notify fires for side threads too. */
  sameSession?: boolean;
}

/** The Codex notify program's pseudo-event: not a hook, but reported the same way. */
export const CODEX_NOTIFY_EVENT = 'notify';

/** Events whose state does not depend on the payload beyond the subagent check. */
const FIXED: Readonly<Record<HookAgent, Readonly<Record<string, AgentState>>>> = {
  claude: {
    UserPromptSubmit: 'working',
    PreToolUse: 'working',
    PostToolUse: 'working',
    PostToolUseFailure: 'working',
    PermissionRequest: 'needs-input',
    Stop: 'done',
    StopFailure: 'error',
    SessionEnd: 'idle',
    PreCompact: 'progress',
    PostCompact: 'progress',
  },
  codex: {
    UserPromptSubmit: 'working',
    PreToolUse: 'working',
    PostToolUse: 'working',
    PermissionRequest: 'needs-input',
    Stop: 'done',
    StopFailure: 'error',
    PreCompact: 'progress',
    PostCompact: 'progress',
    // The user interrupted the turn (Codex fires this; Claude Code has no such hook).
    Interrupt: 'idle',
    SessionEnd: 'idle',
  },
};

const NOTIFICATION_STATES: Readonly<Record<string, AgentState>> = {
  permission_prompt: 'needs-input',
  elicitation_dialog: 'needs-input',
  idle_prompt: 'idle',
};

/** Same bound and character rule the bridge applies, so an id that passes here also passes there. */
const MAX_SESSION_ID_CHARS = 200;

function sessionIdFrom(v: unknown): string | null {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_SESSION_ID_CHARS) return null;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(v) ? null : v;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stateFor(agent: HookAgent, event: string, p: Record<string, unknown>): AgentState | null {
  if (event === 'SessionStart') return p.source === 'compact' ? 'progress' : 'idle';
  if (event === 'PostModelRequest' && agent === 'codex') return p.status === 'failed' ? 'error' : p.status === 'completed' ? 'working' : null;
  if (event === 'Notification' && agent === 'claude') {
    const type = p.notification_type;
    return typeof type === 'string' && Object.hasOwn(NOTIFICATION_STATES, type) ? NOTIFICATION_STATES[type] : null;
  }
  return Object.hasOwn(FIXED[agent], event) ? FIXED[agent][event] : null;
}

/** null: ignore (subagent payloads with agent_id, SubagentStop, unknown events). Never copies prompt, transcript or tool text. */
export function reportForHook(agent: HookAgent, event: string, payload: unknown): HookReport | null {
  if (!isRecord(payload)) return null;
  if (agent === 'codex' && event === CODEX_NOTIFY_EVENT) {
    // Codex 0.169 also notifies for the side thread that titles a conversation, about 1 s after a
    // prompt: only the thread the hooks named (the tab's session) may finish the turn.
    const thread = sessionIdFrom(payload['thread-id']);
    return payload.type === 'agent-turn-complete' && thread !== null ? { state: 'done', sessionId: thread, sameSession: true } : null;
  }
  // A subagent's events describe work inside the main turn, never the tab's own state.
  if (payload.agent_id !== undefined && payload.agent_id !== null) return null;
  // A payload naming another event means a miswired hook: reporting it would lie.
  if (typeof payload.hook_event_name === 'string' && payload.hook_event_name !== event) return null;
  const state = stateFor(agent, event, payload);
  return state === null ? null : { state, sessionId: sessionIdFrom(payload.session_id) };
}
