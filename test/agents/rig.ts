// The real-agent rig (issue 14): Claude Code and Codex, pinned in test/agents/package.json and
// installed there with `npm ci` when missing, never by the product's own install; mock model
// servers on 127.0.0.1 (mock-model.mjs); and agent homes prepared so that neither agent shows a
// first-run dialog or reaches the network. Everything lives under the test's own A1_HOME.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { REPO_ROOT, a1Argv } from '../helpers/pty.js';

export const AGENTS_DIR = path.join(REPO_ROOT, 'test', 'agents');
const BIN_DIR = path.join(AGENTS_DIR, 'node_modules', '.bin');
/** The versions the rig pins: the key tables of src/status/agentKeys.ts name the same ones. */
export const PINNED = { claude: '2.1.328', codex: '0.169.0' } as const;
export type AgentName = keyof typeof PINNED;

/** npm ci of two native agents: a few hundred MB from the registry on a cold cache. */
export const INSTALL_TIMEOUT_MS = 15 * 60_000;

function installedVersion(name: AgentName): string | null {
  const pkg = name === 'claude' ? '@anthropic-ai/claude-code' : '@openai/codex';
  try {
    return (JSON.parse(fs.readFileSync(path.join(AGENTS_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

/** Installs the pinned agents from test/agents/package-lock.json unless they are there already. */
export function ensureAgents(): void {
  const ready = (Object.keys(PINNED) as AgentName[]).every((n) => installedVersion(n) === PINNED[n] && fs.existsSync(path.join(BIN_DIR, n)));
  if (ready) return;
  process.stderr.write('Installing the pinned real agents for the end-to-end tests (test/agents, npm ci)...\n');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: AGENTS_DIR, stdio: ['ignore', 'inherit', 'inherit'], timeout: INSTALL_TIMEOUT_MS });
  for (const n of Object.keys(PINNED) as AgentName[]) {
    if (installedVersion(n) !== PINNED[n]) throw new Error(`test/agents: ${n} ${PINNED[n]} did not install.`);
  }
}

export function agentBin(name: AgentName): string {
  return path.join(BIN_DIR, name);
}

// ---- the mock model ----

export interface MockRequest {
  n: number;
  at: number;
  api: 'anthropic' | 'responses' | 'models' | 'other' | 'ended';
  main?: boolean;
  prompt?: string;
  toolResult?: boolean;
  scenario?: string;
  /** On an `ended` entry: the client hung up before the answer was whole. */
  closed?: boolean;
}

export interface MockModel {
  port: number;
  /** Every request so far, oldest first. */
  requests(): MockRequest[];
  stop(): Promise<void>;
}

export async function startMockModel(dir: string): Promise<MockModel> {
  const log = path.join(dir, 'mock-model.jsonl');
  const child: ChildProcess = spawn(process.execPath, [path.join(AGENTS_DIR, 'mock-model.mjs'), '--log', log], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`mock model exited with ${code}`)));
  });
  return {
    port,
    requests: () =>
      fs.existsSync(log)
        ? fs
            .readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as MockRequest)
        : [],
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

// ---- agent homes ----

/** A key in Anthropic's shape: Claude Code remembers approving it by its last 20 characters. */
const CLAUDE_API_KEY = `sk-ant-api03-${'mock'.repeat(12)}-AAAAAAAAAAAAAAAAAAAA`;

export interface AgentHome {
  /** The agents' HOME. */
  home: string;
  /** The directory the agent works in (trusted, so no trust dialog). */
  work: string;
  /** What the a1 client (and so every tab) must have in its environment. */
  env: Record<string, string>;
}

/**
 * HOME for both agents under `root`, with a1's hooks installed by the real `a1 hooks install`
 * (run with `a1Env`, the test's a1 environment) and every first-run question answered:
 * - Claude Code: onboarding done, the API key approved, the work dir trusted, the auto-mode offer
 *   seen, and `permissions.defaultMode: "default"` so that tools ask;
 * - Codex: a loopback `mock` provider, `approval_policy = "on-request"` in a read-only sandbox, the
 *   work dir trusted, no update check, plugin sync or tips (they reach the network), and a1's
 *   hooks trusted as its /hooks view would.
 */
export function prepareAgentHome(root: string, port: number, a1Env: Record<string, string>): AgentHome {
  const home = path.join(root, 'agent-home');
  const work = path.join(root, 'work');
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
  fs.mkdirSync(work, { recursive: true });
  const claudeJson = {
    hasCompletedOnboarding: true,
    hasSeenAutoDefaultNudge: true,
    customApiKeyResponses: { approved: [CLAUDE_API_KEY.slice(-20)], rejected: [] },
    projects: { [work]: { hasTrustDialogAccepted: true, allowedTools: [] } },
  };
  fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify(claudeJson, null, 2));
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' } }, null, 2));
  const codexConfig = [
    'model = "mock-model"',
    'model_provider = "mock"',
    'approval_policy = "on-request"',
    'sandbox_mode = "read-only"',
    'check_for_update_on_startup = false',
    '',
    '[model_providers.mock]',
    'name = "Mock"',
    `base_url = "http://127.0.0.1:${port}/v1"`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    `[projects.${JSON.stringify(work)}]`,
    'trust_level = "trusted"',
    '',
    '[tui]',
    'show_tooltips = false',
    '',
    '[features]',
    'plugins = false',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(home, '.codex', 'config.toml'), codexConfig);
  const env: Record<string, string> = {
    HOME: home,
    CODEX_HOME: path.join(home, '.codex'),
    PATH: `${BIN_DIR}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: CLAUDE_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    MOCK_API_KEY: 'mock',
  };
  const [node, a1] = a1Argv();
  for (const agent of ['claude', 'codex']) execFileSync(node, [a1, 'hooks', 'install', agent], { env: { ...a1Env, ...env }, stdio: 'ignore' });
  trustCodexHooks(path.join(home, '.codex'));
  return { home, work, env };
}

// ---- Codex hook trust ----

function snakeCase(event: string): string {
  return event.replace(/(?<!^)(?=[A-Z])/g, '_').toLowerCase();
}

/** JSON with sorted keys and no spaces, as Codex hashes a hook's identity. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Codex 0.169 clamps these two events' timeouts to 1..3 s (default 1); others default to 600. */
const SHORT_TIMEOUT_EVENTS = new Set(['SessionEnd', 'Interrupt']);

/**
 * What Trust in Codex 0.169's /hooks view writes to config.toml for each handler of hooks.json:
 * `[hooks.state."<hooks.json>:<event>:<group>:<handler>"] trusted_hash = "sha256:<hex>"`, the
 * hash of the handler's identity (event, matcher, type, command, effective timeout, async).
 * Measured against the binary's own `hooks/list` currentHash; a wrong hash shows the trust dialog,
 * which the tests would see as a screen that never reaches the prompt.
 */
export function trustCodexHooks(codexHome: string): void {
  const hooksFile = path.join(codexHome, 'hooks.json');
  const hooks = (JSON.parse(fs.readFileSync(hooksFile, 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> }).hooks;
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    groups.forEach((group, gi) =>
      group.hooks.forEach((h, hi) => {
        const given = (h.timeout ?? h.timeoutSec) as number | undefined;
        const timeout = SHORT_TIMEOUT_EVENTS.has(event) ? Math.min(Math.max(given ?? 1, 1), 3) : Math.max(given ?? 600, 1);
        const handler: Record<string, unknown> = { type: h.type ?? 'command', command: h.command, timeout, async: h.async ?? false };
        if (h.statusMessage !== undefined) handler.statusMessage = h.statusMessage;
        const identity: Record<string, unknown> = { event_name: snakeCase(event), hooks: [handler] };
        if (group.matcher !== undefined) identity.matcher = group.matcher;
        const hash = crypto.createHash('sha256').update(canonicalJson(identity)).digest('hex');
        lines.push(`[hooks.state.${JSON.stringify(`${hooksFile}:${snakeCase(event)}:${gi}:${hi}`)}]`, `trusted_hash = "sha256:${hash}"`, '');
      }),
    );
  }
  fs.appendFileSync(path.join(codexHome, 'config.toml'), `\n${lines.join('\n')}`);
}
