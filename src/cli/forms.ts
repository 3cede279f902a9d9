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

/** The form, then its summary from `column`; a form too long for its column puts the summary on
 * the lines below. Forms wider than `width` and summaries wrap at spaces. */
export function formatForms(entries: readonly FormEntry[], layout: FormLayout): string {
  const pad = ' '.repeat(layout.column);
  const lines: string[] = [];
  for (const entry of entries) {
    const form = wrapWords(entry.usage, layout.width - layout.indent - FORM_CONTINUATION).map(
      (line, i) => ' '.repeat(layout.indent + (i === 0 ? 0 : FORM_CONTINUATION)) + line,
    );
    const summary = wrapWords(entry.summary, layout.width - layout.column);
    const last = form[form.length - 1];
    if (form.length === 1 && last.length + 2 <= layout.column) lines.push(last.padEnd(layout.column) + summary[0], ...summary.slice(1).map((l) => pad + l));
    else lines.push(...form, ...summary.map((l) => pad + l));
  }
  return lines.map((l) => l.trimEnd()).join('\n');
}

/** How much further a wrapped form's later lines are indented. */
const FORM_CONTINUATION = 2;

function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
