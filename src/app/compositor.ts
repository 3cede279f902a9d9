// The client's one picture of the outer screen (SPEC §8). It keeps the viewed tab's surface and
// the Ink layers (strip, overlays) as cells, composes them, and turns what changed since the
// last render into bytes for the outer terminal: synchronized-output marks, absolute cursor
// moves, minimal SGR transitions, OSC 8 links, then the real cursor at the child's cursor.
import { DEFAULT_COLOR, RGB_FLAG, underlineStyleOf, withUnderlineStyle, type Color, type Cursor, type Row, type SurfacePatch } from '../surface/types.js';
import { CellGrid } from './cells.js';
import { cup, LINK_CLOSE, PaintBuffer } from './paintBuffer.js';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Layer {
  rect: Rect;
  cells: CellGrid;
}

const CSI = '\x1b[';
const SYNC_BEGIN = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const CURSOR_HIDE = '\x1b[?25l';
const CURSOR_SHOW = '\x1b[?25h';
const SGR_RESET = '\x1b[0m';

/** DECSCUSR codes; 0 asks for the outer terminal's own default. */
const CURSOR_STYLE = { block: 2, underline: 4, bar: 6 } as const;

/** All attribute bits the wire defines; anything else from a patch is ignored (the underline
 * style bits are read apart). */
const ATTR_MASK = 0x1ff;

// Control characters must never reach the outer terminal from a cell's text or a link.
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;

export class Compositor {
  private cols: number;
  private rows: number;
  private surface: CellGrid | null = null;
  private surfaceCursor: Cursor | null = null;
  private yOffset = 0;
  private cursorOverride: Cursor | null = null;
  /** A picture shown in place of the surface (copy mode), which keeps updating underneath. */
  private instead: { grid: CellGrid; cursor: Cursor } | null = null;
  private readonly layers = new Map<string, Layer>();
  /** What the next render should show, and what the outer terminal shows now. */
  private back: CellGrid;
  private front: CellGrid;
  private frontValid = false;
  /** Screen rows to compose and compare at the next render; `dirty` also covers the cursor. */
  private dirtyRows: Uint8Array;
  private dirty = true;
  // What is known about the outer terminal; null when unknown (after invalidate).
  private outerCursorVisible: boolean | null = null;
  private outerCursorStyle: number | null = null;
  private outerCursorAt: { x: number; y: number } | null = null;

  /** `styledUnderlines`: the outer terminal draws underline styles (`4:N`) and colours (`58`);
   * without it every underline is plain and in the text's colour. */
  constructor(
    cols: number,
    rows: number,
    private readonly styledUnderlines = false,
  ) {
    this.cols = cols;
    this.rows = rows;
    this.back = new CellGrid(cols, rows);
    this.front = new CellGrid(cols, rows);
    this.dirtyRows = new Uint8Array(rows).fill(1);
  }

  /** The outer terminal's new size; everything is repainted on the next render. */
  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.back.resize(cols, rows);
    this.front.resize(cols, rows);
    if (this.surface) this.surface.resize(Math.min(this.surface.cols, cols), Math.min(this.surface.rows, rows));
    if (this.instead) this.instead.grid.resize(Math.min(this.instead.grid.cols, cols), Math.min(this.instead.grid.rows, rows));
    this.dirtyRows = new Uint8Array(rows);
    this.invalidate();
  }

  /** Forgets what the outer terminal shows (after a resize, an attach, or foreign output). */
  invalidate(): void {
    this.frontValid = false;
    this.outerCursorVisible = null;
    this.outerCursorStyle = null;
    this.outerCursorAt = null;
    this.markRows(0, this.rows);
  }

  /**
   * Applies a surface patch with the surface's first row at screen row `yOffset`. A full patch
   * replaces the surface; a diff rewrites the rows it lists. Rows a patch lists but leaves short
   * are cleared to their end, and screen rows below the surface show blank.
   */
  setSurface(patch: SurfacePatch, yOffset: number): void {
    // Cells beyond the screen are never shown; a resize of the screen brings a full surface.
    const cols = clampSide(patch.cols, this.cols);
    const rows = clampSide(patch.rows, this.rows);
    if (!this.surface) this.surface = new CellGrid(cols, rows);
    const grid = this.surface;
    const moved = grid.cols !== cols || grid.rows !== rows || yOffset !== this.yOffset;
    if (moved) grid.resize(cols, rows);
    if (moved || patch.full) this.markRows(0, this.rows);
    if (patch.full) grid.clear();
    for (const y of writeRows(grid, patch.lines, cols, rows, this.styledUnderlines)) this.markRows(y + yOffset, y + yOffset + 1);
    this.surfaceCursor = patch.cursor;
    this.yOffset = yOffset;
    this.dirty = true;
  }

  /**
   * Shows a full `patch` in place of the surface, at the surface's place, until called with
   * null: patches given to setSurface meanwhile still apply, so the live surface comes back
   * current.
   */
  showInstead(patch: SurfacePatch | null): void {
    if (patch === null) {
      this.instead = null;
    } else {
      const cols = clampSide(patch.cols, this.cols);
      const rows = clampSide(patch.rows, this.rows);
      const grid = this.instead?.grid ?? new CellGrid(cols, rows);
      grid.resize(cols, rows);
      grid.clear();
      writeRows(grid, patch.lines, cols, rows, this.styledUnderlines);
      this.instead = { grid, cursor: patch.cursor };
    }
    this.markRows(0, this.rows);
  }

  /** Keeps showing the surface as it is now while later patches apply underneath, until
   * showInstead replaces or ends it. */
  freezeSurface(): void {
    if (!this.surface || !this.surfaceCursor) return;
    const grid = new CellGrid(this.surface.cols, this.surface.rows);
    grid.blit(this.surface, 0, 0, this.surface.cols, this.surface.rows, 0, 0);
    this.instead = { grid, cursor: this.surfaceCursor };
    this.markRows(0, this.rows);
  }

  /** No surface at all (no tab viewed): its rows show blank and the cursor is hidden. */
  clearSurface(): void {
    this.surface = null;
    this.surfaceCursor = null;
    this.markRows(0, this.rows);
  }

  /**
   * Places (or moves) a layer covering `rect`, drawn over the surface and over layers placed
   * before it; `rect` null removes the layer. Without `cells` a moved layer keeps its cells and
   * a new one is blank. The grid is handed over: to change its cells, set the layer again.
   */
  setLayer(id: string, rect: Rect | null, cells?: CellGrid): void {
    const old = this.layers.get(id);
    if (old) this.markRows(old.rect.y, old.rect.y + old.rect.h);
    if (rect === null) {
      this.layers.delete(id);
      return;
    }
    const r = { x: Math.trunc(rect.x), y: Math.trunc(rect.y), w: Math.max(0, Math.trunc(rect.w)), h: Math.max(0, Math.trunc(rect.h)) };
    const grid = cells ?? old?.cells ?? new CellGrid(Math.min(r.w, this.cols), Math.min(r.h, this.rows));
    this.layers.set(id, { rect: r, cells: grid });
    this.markRows(r.y, r.y + r.h);
  }

  /** A cursor in screen coordinates that wins over the surface's (an overlay's text field);
   * null follows the surface's cursor again. */
  setCursor(cursor: Cursor | null): void {
    this.cursorOverride = cursor;
    this.dirty = true;
  }

  /** The bytes that bring the outer terminal up to date; '' when nothing changed. */
  render(): string {
    if (!this.dirty) return '';
    this.dirty = false;
    const paint = new PaintBuffer(this.cols);
    if (!this.frontValid) paint.raw(SGR_RESET + LINK_CLOSE);
    for (let y = 0; y < this.rows; y++) {
      if (this.dirtyRows[y] === 0) continue;
      this.dirtyRows[y] = 0;
      this.composeRow(y);
      this.paintRow(paint, y);
    }
    this.frontValid = true;
    const cells = paint.finish();

    const want = this.wantedCursor();
    let cursor = '';
    let at = cells === '' ? this.outerCursorAt : paint.at();
    if (want.visible) {
      if (!at || at.x !== want.x || at.y !== want.y) cursor += cup(want.x, want.y);
      at = { x: want.x, y: want.y };
      const style = want.defaultStyle ? 0 : CURSOR_STYLE[want.shape] - (want.blink ? 1 : 0);
      if (style !== this.outerCursorStyle) cursor += `${CSI}${style} q`;
      this.outerCursorStyle = style;
    }
    if (cells === '' && cursor === '' && want.visible === this.outerCursorVisible) return '';
    this.outerCursorAt = at;
    // The cursor is hidden while cells are painted, so it never flickers across the screen.
    const hide = cells !== '' && this.outerCursorVisible !== false;
    let out = SYNC_BEGIN + (hide ? CURSOR_HIDE : '') + cells + cursor;
    if (want.visible && (hide || this.outerCursorVisible !== true)) out += CURSOR_SHOW;
    if (!want.visible && !hide && this.outerCursorVisible !== false) out += CURSOR_HIDE;
    this.outerCursorVisible = want.visible;
    return out + SYNC_END;
  }

  private markRows(from: number, to: number): void {
    this.dirtyRows.fill(1, Math.max(0, from), Math.max(0, Math.min(this.rows, to)));
    this.dirty = true;
  }

  /** Screen row `y` of the picture: the surface, then each layer over it in order. */
  private composeRow(y: number): void {
    const back = this.back;
    back.clearSpan(0, y, this.cols);
    const sy = y - this.yOffset;
    const surface = this.instead?.grid ?? this.surface;
    if (surface && sy >= 0 && sy < surface.rows) back.blit(surface, 0, sy, surface.cols, 1, 0, y);
    for (const { rect, cells } of this.layers.values()) {
      if (y < rect.y || y >= rect.y + rect.h) continue;
      back.clearSpan(rect.x, y, rect.w);
      const ly = y - rect.y;
      if (ly < cells.rows) back.blit(cells, 0, ly, Math.min(rect.w, cells.cols), 1, rect.x, y);
    }
  }

  private paintRow(paint: PaintBuffer, y: number): void {
    const { back, front, cols } = this;
    const base = y * cols;
    // From here to the row's end every cell is a default blank: one erase covers them.
    let blankFrom = cols;
    while (blankFrom > 0 && isDefaultBlank(back, base + blankFrom - 1)) blankFrom--;
    for (let x = 0; x < cols; x++) {
      const i = base + x;
      const width = back.width[i];
      if (width === 0) continue;
      if (this.frontValid && back.sameCell(i, front, i) && (width === 1 || back.sameCell(i + 1, front, i + 1))) continue;
      if (x >= blankFrom) {
        paint.eraseToEnd(x, y);
        break;
      }
      paint.cell(x, y, back, i);
    }
    front.copyRow(back, y);
  }

  private wantedCursor(): Cursor {
    if (this.cursorOverride) return { ...this.cursorOverride, visible: this.cursorOverride.visible && this.onScreen(this.cursorOverride) };
    const c = this.instead?.cursor ?? this.surfaceCursor;
    const surface = this.instead?.grid ?? this.surface;
    const hidden: Cursor = { x: 0, y: 0, visible: false, shape: 'block', blink: false };
    if (!c || !surface) return hidden;
    const at = { ...c, y: c.y + this.yOffset };
    const inSurface = c.x >= 0 && c.y >= 0 && c.x < surface.cols && c.y < surface.rows;
    const covered = [...this.layers.values()].some(({ rect }) => at.x >= rect.x && at.x < rect.x + rect.w && at.y >= rect.y && at.y < rect.y + rect.h);
    return { ...at, visible: c.visible && inSurface && this.onScreen(at) && !covered };
  }

  private onScreen(c: { x: number; y: number }): boolean {
    return Number.isInteger(c.x) && Number.isInteger(c.y) && c.x >= 0 && c.y >= 0 && c.x < this.cols && c.y < this.rows;
  }
}

/** Writes surface rows into `grid` (each listed row cleared first); returns the rows written.
 * Underline styles and colours are kept only when `styledUnderlines`. */
function writeRows(grid: CellGrid, lines: readonly Row[], cols: number, rows: number, styledUnderlines: boolean): number[] {
  const written: number[] = [];
  for (const row of lines) {
    if (!Number.isInteger(row.y) || row.y < 0 || row.y >= rows) continue;
    written.push(row.y);
    grid.clearSpan(0, row.y, cols);
    let x = 0;
    for (const run of row.runs) {
      if (x >= cols) break;
      const text = CONTROL.test(run.s) ? run.s.replace(CONTROLS, '?') : run.s;
      const fg = color(run.fg);
      const bg = color(run.bg);
      const fl = styledUnderlines ? withUnderlineStyle(run.fl & ATTR_MASK, underlineStyleOf(run.fl)) : run.fl & ATTR_MASK;
      const uc = styledUnderlines && underlineStyleOf(fl) !== 0 && run.uc !== undefined ? color(run.uc) : DEFAULT_COLOR;
      const link = run.link === undefined ? undefined : run.link.replace(CONTROLS, '');
      if (run.w !== undefined) {
        const w = run.w === 2 ? 2 : 1;
        grid.put(x, row.y, text, fg, bg, fl, w, link, uc);
        x += w;
      } else {
        for (let k = 0; k < text.length && x < cols; k++, x++) {
          const c = text.charCodeAt(k);
          const astral = c >= 0xd800 && c <= 0xdbff && k + 1 < text.length;
          grid.put(x, row.y, astral ? text.slice(k, k + 2) : text[k], fg, bg, fl, 1, link, uc);
          if (astral) k++;
        }
      }
    }
  }
  return written;
}

function isDefaultBlank(g: CellGrid, i: number): boolean {
  return g.ch[i] === ' ' && g.fg[i] === DEFAULT_COLOR && g.bg[i] === DEFAULT_COLOR && g.fl[i] === 0 && g.width[i] === 1 && g.link[i] === undefined && g.uc[i] === DEFAULT_COLOR;
}

function clampSide(n: number, max: number): number {
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : 0;
}

/** Wire colours outside the defined ranges show as the default. */
function color(c: Color): Color {
  if (Number.isInteger(c) && ((c >= 0 && c <= 255) || (c >= RGB_FLAG && c <= (RGB_FLAG | 0xffffff)))) return c;
  return DEFAULT_COLOR;
}
