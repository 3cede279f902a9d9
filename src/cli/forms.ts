// The every-form list (SPEC §11: `--help` lists every form), laid out from the command table
// for a given width: the same text ends `a1 --help` and fills the README's command block.
import type { FormEntry } from './commands/entry.js';

export interface FormLayout {
  /** Columns in all. */
  width: number;
  /** Spaces before each form. */
  indent: number;
  /** The column descriptions start at. */
  column: number;
}

/** How much further a wrapped form's later lines are indented. */
const FORM_CONTINUATION = 2;

/** The form, then its summary from `column`; a form too long for its column puts the summary on
 * the lines below. Summaries wrap at spaces, forms wider than `width` between their arguments. */
export function formatForms(entries: readonly FormEntry[], layout: FormLayout): string {
  const pad = ' '.repeat(layout.column);
  const lines: string[] = [];
  for (const entry of entries) {
    const form = wrapWords(formWords(entry.usage), layout.width - layout.indent - FORM_CONTINUATION).map(
      (line, i) => ' '.repeat(layout.indent + (i === 0 ? 0 : FORM_CONTINUATION)) + line,
    );
    const summary = wrapWords(entry.summary.split(' '), layout.width - layout.column);
    if (form.length === 1 && form[0].length + 2 <= layout.column) lines.push(form[0].padEnd(layout.column) + summary[0], ...summary.slice(1).map((l) => pad + l));
    else lines.push(...form, ...summary.map((l) => pad + l));
  }
  return lines.map((l) => l.trimEnd()).join('\n');
}

/** A form's words, an optional part in brackets counting as one: `[--name N]` never breaks. */
function formWords(usage: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let word = '';
  for (const ch of usage) {
    if (ch === ' ' && depth === 0) {
      words.push(word);
      word = '';
      continue;
    }
    if (ch === '[') depth += 1;
    if (ch === ']') depth -= 1;
    word += ch;
  }
  return [...words, word];
}

function wrapWords(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
