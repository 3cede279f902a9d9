// Every measure the bench knows, in run order. A measure is
// `{ name, description?, metrics: [{ key, label, unit }], prepare(ctx) -> input, drivers: { a1, tmux? } }`,
// where each driver is `(ctx, input) -> { [metric key]: number }` and owns every process it starts;
// a measure with no tmux driver is a1 only and is judged against a fixed bound (lib/targets.mjs).
// An `informational` measure (with a `title` and an optional `note`) may drive other systems (lib/systems.mjs) and is
// reported in its own table against tmux, outside the targets.
// Lower is better for every metric, so the ratio a1/tmux reads the same way for all.

import { agentTyping } from './agentTyping.mjs';
import { attach } from './attach.mjs';
import { coldStart } from './coldStart.mjs';
import { echo } from './echo.mjs';
import { echoFloor } from './echoFloor.mjs';
import { flood } from './flood.mjs';
import { history } from './history.mjs';
import { hooks } from './hooks.mjs';
import { hung } from './hung.mjs';
import { manyTabs } from './manyTabs.mjs';
import { memory } from './memory.mjs';
import { recovery } from './recovery.mjs';
import { restart } from './restart.mjs';
import { throughput } from './throughput.mjs';

export const MEASURES = [throughput, echo, echoFloor, flood, hung, attach, coldStart, memory, restart, recovery, history, hooks, agentTyping, manyTabs];
