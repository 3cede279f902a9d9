// What scripts read (issue 18): `a1 tabs --json`, `a1 sessions --json` and `a1 events --json`,
// declared once. Version 1; a change that removes or renames a field, or changes a field's
// meaning, raises SCRIPT_SCHEMA_VERSION (adding a field does not). Every state is a word of
// src/status/vocabulary.ts. The README's "Scripting" section documents the same shapes.
import { attentionWord, glyphWord, type AttentionWord, type GlyphWord } from './vocabulary.js';

export const SCRIPT_SCHEMA_VERSION = 1;

/** One tab, as every script output shows it. */
export interface ScriptTab {
  id: string;
  name: string;
  /** 1-based place in the strip (what `Alt+1`… and tab targets count). */
  position: number;
  /** The tab's state word: starting, running, asleep, exited, failed. */
  status: string;
  /** The agent the tab runs, or null for a plain shell; `state` is what it last reported
   * (working, idle, needs-input, done, error), null before its first report or without a server. */
  agent: { kind: string; state: string | null; sessionId: string | null } | null;
  /** What the chip's glyph says (none, starting, working, needs-input, done, error, asleep,
   * unresponsive, stalled); null when nobody knows (no server). */
  glyph: GlyphWord | null;
  /** Why the tab wants you: needs-input, done or error; else null. */
  attention: AttentionWord | null;
  /** The title its program set ('' for none). */
  title: string;
  /** How its program last ended, while it is exited or failed. */
  exit: { code: number | null; signal: number | null } | null;
  /** Where the tab's shell is now, as tmux's pane_current_path: the directory of the job in the
   * foreground of its terminal, else of its program; where it started when that cannot be read. */
  cwd: string;
  /** Where the tab started, and where its program starts again on a restart. */
  startCwd: string;
  holderPid: number | null;
  childPid: number | null;
}

/** `a1 tabs --json`: the server that answered (null: read from the registry) and the tabs in order. */
export interface ScriptTabs {
  version: typeof SCRIPT_SCHEMA_VERSION;
  server: { pid: number; epoch: number } | null;
  tabs: ScriptTab[];
}

/** One agent session of `a1 sessions --json`. */
export interface ScriptSession {
  sessionId: string;
  agent: string;
  name: string;
  cwd: string;
  /** The session's state word: open, asleep, resumable, closed, reboot, expired. */
  state: string;
  /** The live tab holding it, or null. */
  tabId: string | null;
  /** The kind of its newest resume record (live, quit, sleep), or null when only history has it. */
  record: string | null;
  /** When its newest record or history entry was written (ms since the epoch). */
  at: number;
}

export interface ScriptSessions {
  version: typeof SCRIPT_SCHEMA_VERSION;
  sessions: ScriptSession[];
}

/** The facts a tab's row is made of, as the server and registry say them. */
export interface TabFacts {
  id: string;
  name: string;
  lifecycle: string;
  cwd: string;
  /** Absent when only the start directory is known (then `cwd` is it). */
  startCwd?: string;
  holderPid: number | null;
  childPid: number | null;
  title?: string;
  exit?: { code: number | null; signal: number | null } | null;
  agent: { kind: string; state: string | null; sessionId: string | null } | null;
  /** The glyph (src/status/glyphs.ts), null or absent when unknown. */
  glyph?: string | null;
}

/** What the chip shows for a tab whose holder has said nothing yet (src/app/ui/chip.ts glyphFor). */
const LIFECYCLE_GLYPH: Readonly<Record<string, GlyphWord>> = { starting: 'starting', failed: 'error' };

/** A tab's row at its 1-based position. */
export function scriptTab(f: TabFacts, position: number): ScriptTab {
  const status = f.lifecycle;
  return {
    id: f.id,
    name: f.name,
    position,
    status,
    agent: f.agent,
    glyph: status === 'asleep' ? 'asleep' : (glyphWord(f.glyph) ?? LIFECYCLE_GLYPH[status] ?? null),
    attention: status === 'asleep' ? null : attentionWord(f.glyph),
    title: f.title ?? '',
    exit: status === 'exited' || status === 'failed' ? (f.exit ?? null) : null,
    cwd: f.cwd,
    startCwd: f.startCwd ?? f.cwd,
    holderPid: f.holderPid,
    childPid: f.childPid,
  };
}
