// The hook mapping: each Claude Code and Codex event to the report `a1 status` sends, subagents
// ignored, and nothing from the payload but the session id ever leaves it.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { reportForHook, HOOK_AGENTS, type HookAgent } from '../../src/status/hookEvents.js';
import { AGENT_STATES } from '../../src/status/agentState.js';

const SID = '3f6c2a1e-9b7d-4c55-8e0a-2d1f4b6a7c90';
const SECRET = 'PLACEHOLDER-PROMPT-TEXT-never-copied';

function claude(event: string, extra: Record<string, unknown> = {}) {
  return {
    session_id: SID,
    transcript_path: `/home/u/.claude/projects/-work-demo/${SID}.jsonl`,
    cwd: '/work/demo',
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  };
}

describe('reportForHook: Claude Code', () => {
  const cases: [string, Record<string, unknown>, string | null][] = [
    ['SessionStart', { source: 'startup', model: 'claude-sonnet' }, 'idle'],
    ['SessionStart', { source: 'resume' }, 'idle'],
    ['SessionStart', { source: 'clear' }, 'idle'],
    ['SessionStart', { source: 'compact' }, 'progress'],
    ['UserPromptSubmit', { prompt: SECRET }, 'working'],
    ['PreToolUse', { tool_name: 'Bash', tool_input: { command: SECRET }, tool_use_id: 'toolu_01' }, 'working'],
    ['PostToolUse', { tool_name: 'Bash', tool_input: { command: SECRET }, tool_response: { stdout: SECRET } }, 'working'],
    ['PostToolUseFailure', { tool_name: 'Bash', error: SECRET }, 'working'],
    ['PermissionRequest', { tool_name: 'Bash', tool_input: { command: SECRET } }, 'needs-input'],
    ['Notification', { message: SECRET, notification_type: 'permission_prompt' }, 'needs-input'],
    ['Notification', { message: SECRET, notification_type: 'elicitation_dialog' }, 'needs-input'],
    ['Notification', { message: SECRET, notification_type: 'idle_prompt' }, 'idle'],
    ['Notification', { message: SECRET, notification_type: 'auth_success' }, null],
    ['Notification', { message: SECRET }, null],
    ['Stop', { stop_hook_active: false, last_assistant_message: SECRET }, 'done'],
    ['StopFailure', { error: 'rate_limit', error_details: SECRET }, 'error'],
    ['SessionEnd', { reason: 'prompt_input_exit' }, 'idle'],
    ['PreCompact', { trigger: 'auto' }, 'progress'],
    ['SubagentStart', { agent_id: 'a1b2', agent_type: 'Explore' }, null],
    ['SubagentStop', { stop_hook_active: false }, null],
    ['TeammateIdle', {}, null],
  ];
  for (const [event, extra, state] of cases) {
    it(`${event} ${JSON.stringify(extra).slice(0, 50)} → ${state}`, () => {
      const r = reportForHook('claude', event, claude(event, extra));
      expect(r).toEqual(state === null ? null : { state, sessionId: SID });
    });
  }

  it('ignores every event of a subagent (payload with agent_id)', () => {
    for (const event of ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'Stop', 'StopFailure', 'UserPromptSubmit']) {
      expect(reportForHook('claude', event, claude(event, { agent_id: 'agent-7', agent_type: 'general-purpose' }))).toBeNull();
    }
  });

  it('refuses a payload that names another event (a miswired hook)', () => {
    expect(reportForHook('claude', 'Stop', claude('UserPromptSubmit'))).toBeNull();
  });

  it('drops a session id that is too long or holds control characters, keeping the state', () => {
    expect(reportForHook('claude', 'Stop', { ...claude('Stop'), session_id: 'x'.repeat(201) })).toEqual({ state: 'done', sessionId: null });
    expect(reportForHook('claude', 'Stop', { ...claude('Stop'), session_id: 'a\nb' })).toEqual({ state: 'done', sessionId: null });
    expect(reportForHook('claude', 'Stop', { hook_event_name: 'Stop' })).toEqual({ state: 'done', sessionId: null });
  });

  it('ignores a payload that is not a JSON object', () => {
    for (const p of [null, undefined, 'Stop', 3, [claude('Stop')]]) expect(reportForHook('claude', 'Stop', p)).toBeNull();
  });
});

describe('reportForHook: Codex', () => {
  const codex = (event: string, extra: Record<string, unknown> = {}) => ({
    session_id: SID,
    transcript_path: null,
    cwd: '/work/demo',
    hook_event_name: event,
    model: 'gpt-5-codex',
    permission_mode: 'default',
    turn_id: 'turn-1',
    ...extra,
  });

  it('maps notify agent-turn-complete to done with the thread id', () => {
    const payload = { type: 'agent-turn-complete', 'thread-id': 'th-42', 'turn-id': 't-1', cwd: '/w', 'input-messages': [SECRET], 'last-assistant-message': SECRET };
    expect(reportForHook('codex', 'notify', payload)).toEqual({ state: 'done', sessionId: 'th-42', sameSession: true });
    expect(reportForHook('codex', 'notify', { ...payload, 'thread-id': undefined })).toBeNull();
    expect(reportForHook('codex', 'notify', { ...payload, type: 'approval-requested' })).toBeNull();
  });

  it('maps its hooks.json events like Claude Code and ignores subagents', () => {
    expect(reportForHook('codex', 'SessionStart', codex('SessionStart', { source: 'resume' }))).toEqual({ state: 'idle', sessionId: SID });
    expect(reportForHook('codex', 'UserPromptSubmit', codex('UserPromptSubmit', { prompt: SECRET }))).toEqual({ state: 'working', sessionId: SID });
    expect(reportForHook('codex', 'PermissionRequest', codex('PermissionRequest', { tool_name: 'Bash', tool_input: { command: SECRET } }))).toEqual({ state: 'needs-input', sessionId: SID });
    expect(reportForHook('codex', 'Stop', codex('Stop', { stop_hook_active: false }))).toEqual({ state: 'done', sessionId: SID });
    expect(reportForHook('codex', 'StopFailure', codex('StopFailure', { error: 'overloaded' }))).toEqual({ state: 'error', sessionId: SID });
    // 0.169 reports a failed model request instead of StopFailure.
    expect(reportForHook('codex', 'PostModelRequest', codex('PostModelRequest', { status: 'failed', error: SECRET }))).toEqual({ state: 'error', sessionId: SID });
    expect(reportForHook('codex', 'PostModelRequest', codex('PostModelRequest', { status: 'completed', error: null }))).toEqual({ state: 'working', sessionId: SID });
    expect(reportForHook('codex', 'PostModelRequest', codex('PostModelRequest', { status: 'weird' }))).toBeNull();
    expect(reportForHook('codex', 'SubagentStop', codex('SubagentStop', { agent_id: 'x' }))).toBeNull();
    expect(reportForHook('codex', 'PreToolUse', codex('PreToolUse', { agent_id: 'x', tool_name: 'Bash' }))).toBeNull();
    // Codex has no Notification hook; a stray one is not guessed at.
    expect(reportForHook('codex', 'Notification', codex('Notification', { notification_type: 'permission_prompt' }))).toBeNull();
  });
});

describe('reportForHook: properties', () => {
  const agent = fc.constantFrom<HookAgent>(...HOOK_AGENTS);
  const event = fc.oneof(
    fc.constantFrom('SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'Notification', 'PostToolUse', 'Stop', 'StopFailure', 'SessionEnd', 'SubagentStop', 'notify'),
    fc.string(),
  );

  it('never throws, and returns only a bridge state and a session id taken verbatim from the payload', () => {
    fc.assert(
      fc.property(agent, event, fc.anything(), (a, e, p) => {
        const r = reportForHook(a, e, p);
        if (r === null) return;
        expect(Object.keys(r).sort()).toEqual(['sessionId', 'state']);
        expect(AGENT_STATES).toContain(r.state);
        if (r.sessionId !== null) {
          const rec = p as Record<string, unknown>;
          expect([rec.session_id, rec['thread-id']]).toContain(r.sessionId);
        }
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('ignores any payload that carries an agent_id, whatever the event', () => {
    fc.assert(
      fc.property(agent, event.filter((e) => e !== 'notify'), fc.string({ minLength: 1 }), fc.dictionary(fc.string(), fc.jsonValue()), (a, e, id, rest) => {
        expect(reportForHook(a, e, { ...rest, hook_event_name: e, agent_id: id })).toBeNull();
      }),
    );
  });
});
