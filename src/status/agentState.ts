// What a child may report about its agent over the tab bridge (SPEC §8): owned by status, which
// reads these reports; the holder's bridge and the CLI only carry them.

/** The states `a1 status` may report (SPEC §8). */
export const AGENT_STATES = ['working', 'needs-input', 'idle', 'done', 'error', 'heartbeat', 'progress'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export function isAgentState(value: unknown): value is AgentState {
  return (AGENT_STATES as readonly unknown[]).includes(value);
}
