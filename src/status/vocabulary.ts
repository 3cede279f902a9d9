// The words a person reads for a state, declared once (issue 18): the strip's notices, `a1 tabs`,
// `a1 sessions`, `a1 tabs host status`, their `--json`, `a1 events --json` and the README's table
// (test/status/vocabulary.test.ts checks it against this list) all say these words. A tab's
// lifecycle (src/tabLifecycle.ts) and a chip's glyph (src/status/glyphs.ts) are named by these
// words in the code too, so nothing translates them; an older peer's names are made today's where
// they arrive (src/protocol/olderNames.ts).
import { GLYPH_FRAMES, type Glyph } from './glyphs.js';

/** One user-facing state: its word, the glyph the strip shows for it ('' for none), and what it means. */
export interface StateWord {
  readonly word: string;
  readonly glyph: string;
  readonly meaning: string;
}

const still = (g: Glyph): string => GLYPH_FRAMES[g][0] ?? '';

/** A tab's lifecycle (`status` in `a1 tabs`), keyed by the word: one per src/tabLifecycle.ts LIFECYCLES. */
export const TAB_STATES = {
  starting: { word: 'starting', glyph: still('starting'), meaning: 'its program is starting' },
  running: { word: 'running', glyph: '', meaning: 'its program runs (the agent glyph says what it does)' },
  asleep: { word: 'asleep', glyph: still('asleep'), meaning: 'checkpointed and stopped (`/sleep`, idle); viewing it or a key resumes its session' },
  exited: { word: 'exited', glyph: '', meaning: 'its program ended and stays as it ended: a command, however it ended, or an agent with status 0 or by its interrupt key; `r` runs it again' },
  failed: { word: 'failed', glyph: still('error'), meaning: 'its agent crashed three times in ten minutes, or its program could not start' },
} as const satisfies Record<string, StateWord>;
export type TabStateWord = keyof typeof TAB_STATES;


/** What the chip's glyph says (`glyph` in `a1 tabs --json` and events), keyed by the word: one per
 * src/status/glyphs.ts GLYPHS. */
export const GLYPH_STATES = {
  none: { word: 'none', glyph: '', meaning: 'nothing to report (a shell, or an idle agent)' },
  starting: { word: 'starting', glyph: still('starting'), meaning: 'starting (spins, dimmed)' },
  working: { word: 'working', glyph: still('working'), meaning: 'the agent works (spins)' },
  'needs-input': { word: 'needs-input', glyph: still('needs-input'), meaning: 'the agent asks you something' },
  done: { word: 'done', glyph: still('done'), meaning: 'the agent finished while you were elsewhere (cleared once any terminal views the tab)' },
  error: { word: 'error', glyph: still('error'), meaning: 'the agent or its program failed' },
  asleep: { word: 'asleep', glyph: still('asleep'), meaning: 'the tab sleeps' },
  unresponsive: { word: 'unresponsive', glyph: still('unresponsive'), meaning: 'the agent stopped answering its heartbeat' },
  stalled: { word: 'stalled', glyph: still('stalled'), meaning: 'working with no progress for `tabsStallNoticeSeconds`' },
} as const satisfies Record<string, StateWord>;
export type GlyphWord = keyof typeof GLYPH_STATES;

/** The glyph's word, null for a name that is no glyph. */
export function glyphWord(glyph: string | null | undefined): GlyphWord | null {
  return glyph && Object.hasOwn(GLYPH_STATES, glyph) ? (glyph as GlyphWord) : null;
}

/** Why a tab wants its user (`attention`): the glyphs that ask for you. */
export const ATTENTION_WORDS = ['needs-input', 'done', 'error'] as const satisfies readonly GlyphWord[];
export type AttentionWord = (typeof ATTENTION_WORDS)[number];

export function attentionWord(glyph: string | null | undefined): AttentionWord | null {
  const w = glyphWord(glyph);
  return (ATTENTION_WORDS as readonly string[]).includes(w ?? '') ? (w as AttentionWord) : null;
}

/** An agent session's state (`a1 sessions`), keyed by the word. */
export const SESSION_STATES = {
  open: { word: 'open', glyph: '', meaning: 'a tab holds it' },
  asleep: { word: 'asleep', glyph: still('asleep'), meaning: 'the tab holding it sleeps' },
  resumable: { word: 'resumable', glyph: '', meaning: 'no tab holds it; its resume record reopens it (`a1 --session ID`)' },
  closed: { word: 'closed', glyph: '', meaning: 'its tab was closed (history)' },
  reboot: { word: 'reboot', glyph: '', meaning: 'its tab was lost to a reboot (history)' },
  expired: { word: 'expired', glyph: '', meaning: 'its resume record expired (history)' },
} as const satisfies Record<string, StateWord>;
export type SessionStateWord = keyof typeof SESSION_STATES;

/** A session's word: held by a live tab (asleep when that tab sleeps), else its record or history. */
export function sessionStateWord(s: { tabLifecycle: string | null; fromRecord: boolean; historyReason: string | null }): string {
  if (s.tabLifecycle !== null) return s.tabLifecycle === 'asleep' ? 'asleep' : 'open';
  if (s.fromRecord) return 'resumable';
  return s.historyReason ?? 'resumable';
}

/** The README's state table, between `<!-- begin states -->` and `<!-- end states -->`
 * (test/status/vocabulary.test.ts checks the README says exactly this). */
export function vocabularyTable(): string {
  const rows: string[] = ['| where | word | glyph | meaning |', '|---|---|---|---|'];
  const add = (where: string, list: Record<string, StateWord>) => {
    for (const s of Object.values(list)) rows.push(`| ${where} | \`${s.word}\` | ${s.glyph ? `\`${s.glyph}\`` : ''} | ${s.meaning} |`);
  };
  add('tab', TAB_STATES);
  add('chip', GLYPH_STATES);
  add('session', SESSION_STATES);
  return rows.join('\n') + '\n';
}
