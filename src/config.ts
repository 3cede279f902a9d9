// config.json (SPEC §12): every key is declared once in CONFIG_KEYS with its type, default,
// bounds and description; validation, help and docs all derive from that list.
// Reading the file is src/config/load.ts; how each key applies to a running a1, src/config/applies.ts.
import { ESC_TIMEOUT_MS } from './input/tokenizer.js';
import { didYouMean } from './config/suggest.js';

export const CONFIG_FILE_NAME = 'config.json';

const KiB = 1024;
const MiB = 1024 * KiB;
/** setTimeout fires at once for delays above 2^31-1 ms (about 24.8 days); a week stays well under. */
const LONGEST_TIMER_MINUTES = 7 * 24 * 60;
const LONGEST_TIMER_SECONDS = LONGEST_TIMER_MINUTES * 60;
/** Each tab is a holder process with a PTY; 100 keeps a profile far from PTY and fd limits. */
const TABS_MAX_CAP = 100;
/** Starting agents contend for their own settings and auth locks; 16 at once is plenty. */
const CONCURRENT_STARTS_CAP = 16;
/** The headless model keeps every scrollback line in memory, in every holder. */
const SCROLLBACK_CAP = 100_000;
/** A paste smaller than this is never refused for lack of queue space. */
const INPUT_QUEUE_MIN = 64 * KiB;
/** Input beyond this is a runaway paste, not typing; it is refused rather than buffered. */
const INPUT_QUEUE_CAP = 16 * MiB;
/** One full-surface resync of a large terminal (hundreds of columns, styled) must fit. */
const CLIENT_QUEUE_MIN = 1 * MiB;
/** Per client, per holder: memory a slow client may pin before it is resynced instead. */
const CLIENT_QUEUE_CAP = 64 * MiB;
/** The double Ctrl+C window: below 100 ms no person can press twice, above 5 s a lone ^C lingers. */
const DETACH_INTERVAL_MIN_MS = 100;
const DETACH_INTERVAL_MAX_MS = 5_000;
const ESCAPE_TIMEOUT_MAX_MS = 2_000;
/** A tab is shown unresponsive after 30 s of missed bridge heartbeats (SPEC §10); restarting it
 * sooner would restart a tab nobody was ever told was unresponsive. */
const UNRESPONSIVE_RESTART_MIN_SECONDS = 30;
/** Agent kinds become names in commands and records: short, lowercase, no spaces. */
const AGENT_KIND = /^[a-z][a-z0-9_-]{0,31}$/;
const SESSION_ID_PLACEHOLDER = '{sessionId}';

/** Agents whose own hook systems `a1 hooks install` knows how to wire to `a1 status`. */
export const HOOK_KINDS = ['claude', 'codex'] as const;
export type HookKind = (typeof HOOK_KINDS)[number];

export interface AgentSpec {
  /** The program that starts this agent, or null when the tab's own command is used. */
  command: string[] | null;
  /** Argv that resumes a session, with "{sessionId}" in one argument; null if it cannot resume. */
  resume: string[] | null;
  /** Which hook integration reports its status, or null when it reports by `a1 status` itself. */
  hooks: HookKind | null;
}

const BUILT_IN_AGENTS: Record<string, AgentSpec> = {
  claude: { command: ['claude'], resume: ['claude', '--resume', SESSION_ID_PLACEHOLDER], hooks: 'claude' },
  // Codex 0.169 otherwise runs every Codex of the user in one shared background server, whose hooks
  // carry the environment of whichever tab started it: --no-daemon keeps each tab's agent, and its
  // hooks, in that tab (SPEC §16).
  codex: { command: ['codex', '--no-daemon'], resume: ['codex', 'resume', SESSION_ID_PLACEHOLDER, '--no-daemon'], hooks: 'codex' },
  // "{command}" is the tab's own argv: `a1 new --agent generic -- my-agent` resumes as `my-agent --resume ID`.
  generic: { command: null, resume: ['{command}', '--resume', SESSION_ID_PLACEHOLDER], hooks: null },
};

export const THEME_ROLES = ['viewed', 'hovered', 'other', 'plus', 'hint', 'notice'] as const;
export type ThemeRole = (typeof THEME_ROLES)[number];
export type Theme = Record<ThemeRole, string>;

/** Named colours follow the user's terminal palette; '#rrggbb' is exact. */
const COLOUR_NAMES = [
  'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray',
  'blackBright', 'redBright', 'greenBright', 'yellowBright', 'blueBright', 'magentaBright', 'cyanBright', 'whiteBright',
];
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

const BUILT_IN_THEME: Theme = {
  viewed: 'blue',
  hovered: 'cyan',
  other: 'gray',
  plus: 'green',
  hint: 'gray',
  notice: 'yellow',
};

type Parsed<T> = { ok: true; value: T } | { ok: false; at: string; problem: string };

export interface KeySpec<T> {
  type: 'integer' | 'number' | 'boolean' | 'command' | 'agents' | 'theme';
  description: string;
  /** Inclusive bounds of integer and number keys. */
  min?: number;
  max?: number;
  default: (env: NodeJS.ProcessEnv) => T;
  parse: (value: unknown, at: string) => Parsed<T>;
}

const good = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (at: string, problem: string): Parsed<never> => ({ ok: false, at, problem });

function integer(def: number, min: number, max: number, description: string): KeySpec<number> {
  return {
    type: 'integer',
    description,
    min,
    max,
    default: () => def,
    parse: (v, at) =>
      Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max
        ? good(v as number)
        : bad(at, `must be an integer from ${min} to ${max}`),
  };
}

/** For durations where tests need fractions (e.g. 0.05 minutes). */
function number(def: number, min: number, max: number, description: string): KeySpec<number> {
  return {
    type: 'number',
    description,
    min,
    max,
    default: () => def,
    parse: (v, at) =>
      typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max
        ? good(v)
        : bad(at, `must be a number from ${min} to ${max}`),
  };
}

function boolean(def: boolean, description: string): KeySpec<boolean> {
  return {
    type: 'boolean',
    description,
    default: () => def,
    parse: (v, at) => (typeof v === 'boolean' ? good(v) : bad(at, 'must be true or false')),
  };
}

/** A string is one program path (never split on spaces); an array is argv. */
function parseCommand(v: unknown, at: string): Parsed<string[]> {
  if (typeof v === 'string' && v !== '') return good([v]);
  if (Array.isArray(v) && v.length > 0 && v.every((a) => typeof a === 'string') && v[0] !== '') {
    return good([...(v as string[])]);
  }
  return bad(at, 'must be a program path or a non-empty array of strings');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const AGENT_FIELDS = ['command', 'resume', 'hooks'];

function parseAgentSpec(v: unknown, at: string, base: AgentSpec): Parsed<AgentSpec> {
  if (!isPlainObject(v)) return bad(at, 'must be an object with "command", "resume" or "hooks"');
  const spec = { ...base };
  for (const [field, value] of Object.entries(v)) {
    const fieldAt = `${at}.${field}`;
    if (field === 'command') {
      if (value === null) spec.command = null;
      else {
        const command = parseCommand(value, fieldAt);
        if (!command.ok) return bad(fieldAt, 'must be a program path, a non-empty array of strings, or null');
        spec.command = command.value;
      }
    } else if (field === 'resume') {
      const isTemplate =
        Array.isArray(value) &&
        value.every((a) => typeof a === 'string') &&
        value.some((a: string) => a.includes(SESSION_ID_PLACEHOLDER));
      if (value !== null && !isTemplate) {
        return bad(fieldAt, `must be an array of strings with "${SESSION_ID_PLACEHOLDER}" in one of them, or null`);
      }
      spec.resume = value === null ? null : [...(value as string[])];
    } else if (field === 'hooks') {
      if (value !== null && !HOOK_KINDS.includes(value as HookKind)) {
        return bad(fieldAt, `must be one of ${HOOK_KINDS.map((k) => `"${k}"`).join(', ')}, or null`);
      }
      spec.hooks = value as HookKind | null;
    } else {
      return bad(fieldAt, `is not an agent setting (use "command", "resume" or "hooks")${didYouMean(field, AGENT_FIELDS)}`);
    }
  }
  return good(spec);
}

const agents: KeySpec<Record<string, AgentSpec>> = {
  type: 'agents',
  description: 'Agent kinds by name: the command that starts one, its resume template and its hook integration. Entries merge over the built-in claude, codex and generic.',
  default: () => structuredClone(BUILT_IN_AGENTS),
  parse: (v, at) => {
    if (!isPlainObject(v)) return bad(at, 'must be an object of agent kinds');
    const out = structuredClone(BUILT_IN_AGENTS);
    for (const [kind, entry] of Object.entries(v)) {
      const kindAt = `${at}.${kind}`;
      if (!AGENT_KIND.test(kind)) return bad(kindAt, 'is not a valid agent kind (lowercase letters, digits, "-" or "_")');
      const base = out[kind] ?? { command: null, resume: null, hooks: null };
      const spec = parseAgentSpec(entry, kindAt, base);
      if (!spec.ok) return spec;
      out[kind] = spec.value;
    }
    return good(out);
  },
};

const theme: KeySpec<Theme> = {
  type: 'theme',
  description: `Tab strip colours by role (${THEME_ROLES.join(', ')}): a colour name or "#rrggbb". Roles not given keep the built-in colour.`,
  default: () => ({ ...BUILT_IN_THEME }),
  parse: (v, at) => {
    if (!isPlainObject(v)) return bad(at, 'must be an object of role colours');
    const out = { ...BUILT_IN_THEME };
    for (const [role, colour] of Object.entries(v)) {
      const roleAt = `${at}.${role}`;
      if (!THEME_ROLES.includes(role as ThemeRole)) return bad(roleAt, `is not a theme role (${THEME_ROLES.join(', ')})${didYouMean(role, THEME_ROLES)}`);
      if (typeof colour !== 'string' || !(COLOUR_NAMES.includes(colour) || HEX_COLOUR.test(colour))) {
        return bad(roleAt, 'must be a colour name such as "cyan" or a "#rrggbb" colour');
      }
      out[role as ThemeRole] = colour;
    }
    return good(out);
  },
};

export const CONFIG_KEYS = {
  tabCommand: {
    type: 'command',
    description: 'What a new tab runs: a program path, or an array of program and arguments. Default: $SHELL.',
    default: (env) => [env.SHELL || '/bin/sh'],
    parse: parseCommand,
  } satisfies KeySpec<string[]>,
  agents,
  tabsMax: integer(20, 1, TABS_MAX_CAP, 'The most tabs a profile may have.'),
  tabsMaxConcurrentStarts: integer(4, 1, CONCURRENT_STARTS_CAP, 'The most tabs starting at the same time.'),
  scrollbackLines: integer(10_000, 0, SCROLLBACK_CAP, 'Scrollback lines each tab keeps.'),
  inputQueueBytes: integer(1 * MiB, INPUT_QUEUE_MIN, INPUT_QUEUE_CAP, 'Input bytes a tab queues while its program is not reading.'),
  clientQueueBytes: integer(4 * MiB, CLIENT_QUEUE_MIN, CLIENT_QUEUE_CAP, 'Bytes queued for a slow client before it is resynced instead.'),
  detachIntervalMs: integer(500, DETACH_INTERVAL_MIN_MS, DETACH_INTERVAL_MAX_MS, 'Two Ctrl+C presses this close together detach.'),
  escapeTimeoutMs: integer(
    ESC_TIMEOUT_MS,
    0,
    ESCAPE_TIMEOUT_MAX_MS,
    'On a terminal without the kitty keyboard protocol, Esc and a key within this many ms are Alt+that key.',
  ),
  serverIdleExitMinutes: number(10, 0, LONGEST_TIMER_MINUTES, 'The server exits after this long with no running tab and no client.'),
  idleSuspendMinutes: number(60, 0, LONGEST_TIMER_MINUTES, 'An unviewed idle resumable tab sleeps after this long; 0 turns it off.'),
  tabsUnresponsiveRestartSeconds: integer(
    120,
    UNRESPONSIVE_RESTART_MIN_SECONDS,
    LONGEST_TIMER_SECONDS,
    'A tab whose agent missed its heartbeats this long is restarted.',
  ),
  tabsStallNoticeSeconds: integer(300, 1, LONGEST_TIMER_SECONDS, 'A working tab with no progress this long is shown stalled.'),
  closeGraceMs: integer(2_000, 0, 60_000, 'How long a closing or sleeping tab\'s processes get between the hang-up signal and SIGKILL.'),
  allowClipboardWrite: boolean(true, 'Whether programs in tabs may set the clipboard (OSC 52).'),
  chipNumbers: boolean(false, 'Whether each chip starts with its position (1 bash, 2 claude), the number Alt+1…Alt+0 view.'),
  tabsAutoName: boolean(true, 'Tabs nobody named take a short name from their program\'s title or command (false: agent, agent 2, …).'),
  newTabInCurrentDir: boolean(
    false,
    'Whether Alt+A, + and /new-tab open the new tab where the viewed tab\'s shell is now, as tmux\'s new-window -c "#{pane_current_path}" (false: where a1 was launched).',
  ),
  theme,
};

export type ConfigKey = keyof typeof CONFIG_KEYS;
export type Config = { [K in ConfigKey]: (typeof CONFIG_KEYS)[K] extends KeySpec<infer T> ? T : never };

export function defaultConfig(env: NodeJS.ProcessEnv): Config {
  const config: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(CONFIG_KEYS)) config[key] = spec.default(env);
  return config as Config;
}
