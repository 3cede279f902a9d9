// Test helpers: headless terminals configured as the holder configures its model, and a
// normalised read of every visible cell for comparing two terminals.
import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';

const { Terminal } = xtermHeadless;
export type XTerm = InstanceType<typeof Terminal>;

export function makeTerminal(cols: number, rows: number, scrollback = 100): XTerm {
  const term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
  term.loadAddon(new unicode11.Unicode11Addon());
  term.unicode.activeVersion = '11';
  return term;
}

/** `write` parses asynchronously; this resolves once `data` is applied. */
export function write(term: XTerm, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

export interface CellView {
  ch: string;
  w: number;
  fg: string;
  bg: string;
  flags: string;
}

/** Every visible cell; an empty cell reads as a space. */
export function readCells(term: XTerm): CellView[][] {
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell();
  const rows: CellView[][] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y)!;
    const row: CellView[] = [];
    for (let x = 0; x < term.cols; x++) {
      line.getCell(x, cell);
      const ch = cell.getChars();
      row.push({
        ch: ch === '' && cell.getWidth() !== 0 ? ' ' : ch,
        w: cell.getWidth(),
        fg: cell.isFgDefault() ? 'default' : `${cell.isFgRGB() ? 'rgb' : 'p'}${cell.getFgColor()}`,
        bg: cell.isBgDefault() ? 'default' : `${cell.isBgRGB() ? 'rgb' : 'p'}${cell.getBgColor()}`,
        flags: [
          cell.isBold() && 'bold',
          cell.isDim() && 'dim',
          cell.isItalic() && 'italic',
          cell.isUnderline() && 'underline',
          cell.isInverse() && 'inverse',
          cell.isStrikethrough() && 'strike',
          cell.isBlink() && 'blink',
          cell.isInvisible() && 'invisible',
          cell.isOverline() && 'overline',
        ]
          .filter(Boolean)
          .join(','),
      });
    }
    rows.push(row);
  }
  return rows;
}

/** The cursor's position in viewport coordinates. */
export function cursorOf(term: XTerm): { x: number; y: number } {
  const b = term.buffer.active;
  return { x: b.cursorX, y: b.baseY + b.cursorY - b.viewportY };
}
