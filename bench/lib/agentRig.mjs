// The real Claude Code of the test rig, for the bench: a small .mjs port of what
// test/agents/rig.ts does for Claude Code (the pinned install under test/agents, a home whose
// first-run questions are answered, a1's hooks installed by the real `a1 hooks install`), with
// the rig's own loopback mock model (test/agents/mock-model.mjs). Nothing reaches the network.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { REPO_ROOT } from './systems.mjs';
import { sigkill } from './procs.mjs';

const AGENTS_DIR = path.join(REPO_ROOT, 'test', 'agents');
const BIN_DIR = path.join(AGENTS_DIR, 'node_modules', '.bin');
const CLAUDE_PACKAGE = '@anthropic-ai/claude-code';
export const CLAUDE_BIN = path.join(BIN_DIR, 'claude');
/** The mock model prints its port at once; generous for a loaded machine. */
const MOCK_START_TIMEOUT_MS = 15_000;
/** A key in Anthropic's shape: Claude Code remembers approving it by its last 20 characters. */
const CLAUDE_API_KEY = `sk-ant-api03-${'mock'.repeat(12)}-AAAAAAAAAAAAAAAAAAAA`;

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/**
 * Why the pinned Claude Code cannot run here, or null when it can. The bench never installs it:
 * the real-agent tests do (test/agents/rig.ts, npm ci in test/agents).
 */
export function claudeMissing() {
  let pinned;
  try {
    pinned = readJson(path.join(AGENTS_DIR, 'package.json')).dependencies[CLAUDE_PACKAGE];
  } catch {
    return 'test/agents/package.json pins no Claude Code';
  }
  let installed = null;
  try {
    installed = readJson(path.join(AGENTS_DIR, 'node_modules', CLAUDE_PACKAGE, 'package.json')).version;
  } catch {
    // Not installed.
  }
  if (installed !== pinned || !fs.existsSync(CLAUDE_BIN)) {
    return `the pinned Claude Code ${pinned} is not installed in test/agents (${installed ? `found ${installed}` : 'none'}); ` +
      'run `npm ci` there, or the real-agent tests (npx vitest run test/e2e/agents) once';
  }
  return null;
}

/** Starts the rig's mock model on 127.0.0.1: `{ port, stop }`; `stop` ends it by pid. */
export async function startMockModel() {
  const child = spawn(process.execPath, [path.join(AGENTS_DIR, 'mock-model.mjs')], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = () => sigkill(child.pid);
  try {
    const port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the mock model did not start in ${MOCK_START_TIMEOUT_MS} ms`)), MOCK_START_TIMEOUT_MS);
      readline.createInterface({ input: child.stdout }).once('line', (line) => {
        clearTimeout(timer);
        resolve(JSON.parse(line).port);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the mock model exited with ${code}`));
      });
    });
    return { port, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * Claude Code's HOME under `root`, as the rig prepares it: onboarding done, the API key
 * approved, the work dir trusted, the auto-mode offer seen, tools asking; a1's hooks installed
 * by `a1 hooks install claude` run with `a1Env`. Returns `{ home, work, env }`, where `env` is
 * what Claude Code (and an a1 client whose tabs run it) needs on top of a person's environment.
 */
export function prepareClaudeHome(root, port, a1Bin, a1Env) {
  const home = path.join(root, 'agent-home');
  const work = path.join(root, 'work');
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.mkdirSync(work, { recursive: true });
  const claudeJson = {
    hasCompletedOnboarding: true,
    hasSeenAutoDefaultNudge: true,
    customApiKeyResponses: { approved: [CLAUDE_API_KEY.slice(-20)], rejected: [] },
    projects: { [work]: { hasTrustDialogAccepted: true, allowedTools: [] } },
  };
  fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify(claudeJson, null, 2));
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }, null, 2));
  const env = {
    HOME: home,
    PATH: `${BIN_DIR}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: CLAUDE_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  const installed = spawnSync(process.execPath, [a1Bin, 'hooks', 'install', 'claude'], { env: { ...a1Env, ...env }, encoding: 'utf8' });
  if (installed.status !== 0) throw new Error(`a1 hooks install claude failed: ${installed.stderr.trim() || `exit ${installed.status}`}`);
  return { home, work, env };
}

/**
 * A person's environment for Claude Code and the a1 client in front of it, as systems.mjs builds
 * one for the shells: nothing of an outer a1 or tmux, a UTF-8 locale, xterm-256color, and the
 * instance marker that every process started under it inherits (ended by it after).
 */
export function personEnv(marker, instance) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('A1_') || key === 'TMUX' || key === 'TMUX_PANE' || key === 'PROMPT_COMMAND') continue;
    env[key] = value;
  }
  if (!env.LC_ALL && !env.LC_CTYPE && !env.LANG) env.LANG = 'C.UTF-8';
  return { ...env, TERM: 'xterm-256color', [marker]: instance };
}
