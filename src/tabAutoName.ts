// Automatic tab names (issue 18; the seed's `tabsAutoName`): a tab nobody named is called after
// what runs in it: the name its agent reported over the bridge, else its program's window title
// (OSC 0/2), else, before any title, its command. A name is a slug: lowercase letters and digits,
// hyphenated, at most 16 characters. A name the user gave is never replaced. Pure.

/** The longest automatic name, in characters (code points). */
export const AUTO_NAME_MAX = 16;
/** After an automatic rename, a new title renames the tab again only this much later, so a
 * program that retitles itself busily (a prompt per command) does not make its chip flicker. */
export const AUTO_RENAME_INTERVAL_MS = 5_000;

/** Where a tab's name came from (the registry's `name_source`). */
export type NameSource = 'user' | 'default' | 'auto';

/** Interactive shells whose `-c STRING` runs STRING: the tab is named after STRING's program. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'ash', 'dash', 'bash', 'zsh', 'fish', 'ksh', 'mksh', 'yash', 'tcsh', 'csh']);

/** `text` as a slug, or null when nothing nameable is left (empty, only glyphs or punctuation). */
export function slug(text: string): string | null {
  const words = text
    // Accents go from Latin letters only: a mark on another script is part of its letter.
    .normalize('NFKD')
    .replace(/([A-Za-z])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length === 0) return null;
  return clip(words.join('-'), AUTO_NAME_MAX);
}

/** At most `max` characters, cut at a hyphen when one is near enough that a whole word survives. */
function clip(name: string, max: number): string {
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  const head = chars.slice(0, max);
  const lastHyphen = head.lastIndexOf('-');
  const cut = chars[max] !== '-' && lastHyphen >= 3 ? head.slice(0, lastHyphen) : head;
  return cut.join('').replace(/-+$/, '');
}

/**
 * The name a window title gives, or null when it gives none (empty, a spinner glyph alone).
 * Leading status glyphs (Claude Code's `✳`, braille spinners, emoji) are dropped with the rest of
 * the punctuation; a path (`~/src/x`, a shell's `user@host: /srv/app`) names its last directory.
 */
export function titleName(title: string): string | null {
  let text = title.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  const userAtHost = /^[\w.-]+@[\w.-]+:\s*(.*)$/.exec(text);
  if (userAtHost) text = userAtHost[1];
  if (/^(~|\/|\.\.?\/)\S*$/.test(text)) {
    const dirs = text.split('/').filter((d) => d !== '' && d !== '~' && d !== '.' && d !== '..');
    text = dirs.at(-1) ?? '';
  }
  return slug(text);
}

/** The name a command gives before its program sets a title: its program's file name
 * (`/usr/bin/vim` → `vim`, a login shell's `-bash` → `bash`); for `SHELL -c STRING`, the first
 * word of STRING. */
export function commandName(argv: readonly string[]): string | null {
  const program = (p: string | undefined) => (p ?? '').split('/').pop()!.replace(/^-/, '');
  const first = program(argv[0]);
  if (SHELLS.has(first) && argv[1] === '-c' && argv[2] !== undefined) {
    const word = argv[2].trim().split(/\s+/)[0];
    return slug(program(word)) ?? slug(first);
  }
  return slug(first);
}

/** `base`, or `base-N` with the smallest free N ≥ 2, kept within AUTO_NAME_MAX. */
export function uniqueAutoName(base: string, taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const head = Array.from(base)
      .slice(0, AUTO_NAME_MAX - suffix.length)
      .join('')
      .replace(/-+$/, '');
    if (!used.has(head + suffix)) return head + suffix;
  }
}

/** Whether `current` is already `base`, or `base` made unique (`base-2`, a clipped `bas-12`). */
function isNameOf(current: string, base: string): boolean {
  if (current === base) return true;
  const m = /^(.+)-\d+$/.exec(current);
  return m !== null && base.startsWith(m[1]);
}

export interface AutoNameFacts {
  source: NameSource;
  current: string;
  /** The name the tab's agent reported over the bridge (`a1 status --name`). */
  agentName: string | null;
  title: string;
  /** Every other tab's name. */
  taken: readonly string[];
  /** When the tab was last named automatically, by this clock. */
  lastAt: number | null;
  now: number;
}

/**
 * The tab's next automatic name, or null to keep the one it has: a user's name is kept; a title
 * that names nothing (empty, a spinner alone) keeps the previous name; a title naming what the tab
 * is already called keeps it (with its `-N`); a rename within AUTO_RENAME_INTERVAL_MS of the last
 * one waits (asked again later, the newest title wins).
 */
export function nextAutoName(f: AutoNameFacts): string | null {
  const base = autoNameBase(f);
  return base === null ? null : uniqueAutoName(base, f.taken);
}

/** nextAutoName before it is made unique among the other tabs: null when no rename is due, so a
 * caller asking for every tab on every event gathers the other tabs' names only when one is. */
export function autoNameBase(f: Omit<AutoNameFacts, 'taken'>): string | null {
  if (f.source === 'user') return null;
  const base = (f.agentName ? slug(f.agentName) : null) ?? memoTitleName(f.title);
  if (base === null || isNameOf(f.current, base)) return null;
  if (f.lastAt !== null && f.now - f.lastAt < AUTO_RENAME_INTERVAL_MS) return null;
  return base;
}

/** Titles seen lately and the names they give: the server asks about every tab's title on every
 * event, and a title changes far less often than that. Bounded; a full memo starts over. */
const TITLE_MEMO_MAX = 512;
const titleMemo = new Map<string, string | null>();

function memoTitleName(title: string): string | null {
  const known = titleMemo.get(title);
  if (known !== undefined) return known;
  const name = titleName(title);
  if (titleMemo.size >= TITLE_MEMO_MAX) titleMemo.clear();
  titleMemo.set(title, name);
  return name;
}
