// The one writer of the outer screen's cells (SPEC §8): the viewed surface and the Ink layers
// (strip, first-run hint, overlay, notices) composited, and painted at most once per short interval.
import { Compositor } from '../compositor.js';
import { ansiToCells as inkCells } from '../ansiLayer.js';
import { CellGrid } from '../cells.js';
import { DEFAULT_COLOR, type SurfacePatch } from '../../surface/types.js';
import type { InkLayer } from '../inkLayer.js';
import type { UiProps } from '../ui/Ui.js';
import { overlayLeft, overlaySize, type Overlay } from '../ui/overlayLayout.js';
import type { Disposable } from '../../disposable.js';
import { OVERLAY_TOP_GAP, STRIP_ROWS, surfaceRowsOf } from './geometry.js';
import type { HintPlace } from './hintPlacement.js';
import { textWidth } from '../strip/width.js';
import { enableNativeStrings } from '../../protocol/nativeStrings.js';

/** Paints are coalesced within one event-loop turn, and at most one per this interval: the
 * holder already paces frames, so a short gap keeps a keystroke's echo off any timer. */
const PAINT_INTERVAL_MS = 4;

export interface PainterUi {
  /** The UI as it should look now (Ink draws it). */
  props(): UiProps;
  /** The open overlay, whose box Ink drew under the strip. */
  overlay(): Overlay | null;
  /** The first-run hint's place, whose line Ink drew right after the strip's; null when none. */
  hint(): HintPlace | null;
  /** The screen row of the surface's first row. */
  surfaceTop(): number;
}

export class Painter implements Disposable {
  readonly compositor: Compositor;
  /** The viewed tab's last surface, kept for a resize and for copy mode. */
  lastSurface: SurfacePatch | null = null;
  private ink: InkLayer | null = null;
  private inkRequested = false;
  private paintTimer: NodeJS.Timeout | null = null;
  private paintPending = false;
  private lastPaint = 0;
  private disposed = false;

  constructor(
    private readonly stdout: NodeJS.WriteStream,
    private cols: number,
    private rows: number,
    private readonly ui: PainterUi,
    /** False under NO_COLOR: a1's own layers (strip, overlay, notices) lose every colour, as a
     *  net under the components' monochrome styles; the tab's surface keeps its own. */
    private readonly colour = true,
    /** The outer terminal draws underline styles and colours (outerTerminal.styledUnderlines). */
    styledUnderlines = false,
  ) {
    this.compositor = new Compositor(cols, rows, styledUnderlines);
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    this.compositor.resize(cols, rows);
    this.moveSurface();
  }

  /** The surface's first row moved (the first-run hint took or left its own row). */
  moveSurface(): void {
    if (this.lastSurface) this.compositor.setSurface({ ...this.lastSurface, full: true }, this.ui.surfaceTop());
  }

  setSurface(patch: SurfacePatch): void {
    this.lastSurface = patch;
    this.compositor.setSurface(patch, this.ui.surfaceTop());
  }

  /** No tab is viewed. */
  clearSurface(): void {
    this.lastSurface = null;
    this.compositor.clearSurface();
  }

  /** Draws the UI again from uiProps, once Ink has loaded. */
  renderUi(): void {
    if (!this.disposed) this.ink?.update(this.ui.props(), this.rows);
  }

  /** Ink and React are most of the start-up cost, and evaluating them blocks the event loop for
   * tens of milliseconds: they load after the first surface paint, so the tab shows first (as
   * does msgpackr's native extractor). */
  requestInk(): void {
    if (this.inkRequested || this.disposed) return;
    this.inkRequested = true;
    setImmediate(() => void this.loadInk());
  }

  private async loadInk(): Promise<void> {
    enableNativeStrings();
    const { InkLayer } = await importWithoutFetch(() => importBesideBundle<typeof import('../inkLayer.js')>('./inkLayer.js') ?? import('../inkLayer.js'));
    if (this.disposed) return;
    this.ink = new InkLayer(this.ui.props(), this.rows, (frame) => this.onInkFrame(frame));
  }

  private onInkFrame(frame: string): void {
    const { cols } = this;
    const ansiToCells = (text: string, w: number, h: number): CellGrid => {
      const grid = inkCells(text, w, h);
      if (!this.colour) {
        grid.fg.fill(DEFAULT_COLOR);
        grid.bg.fill(DEFAULT_COLOR);
      }
      return grid;
    };
    const lines = frame.split('\n');
    this.compositor.setLayer('strip', { x: 0, y: 0, w: cols, h: STRIP_ROWS }, ansiToCells(lines.slice(0, STRIP_ROWS).join('\n'), cols, STRIP_ROWS));
    let next = STRIP_ROWS;
    const hint = this.ui.hint();
    if (hint) {
      const w = Math.min(cols - hint.x, textWidth(hint.text));
      const cells = new CellGrid(Math.max(1, w), 1);
      cells.blit(ansiToCells(lines[next] ?? '', cols, 1), 0, 0, w, 1, 0, 0);
      this.compositor.setLayer('hint', { x: hint.x, y: hint.row === 'strip' ? 0 : STRIP_ROWS, w, h: 1 }, cells);
      next += 1;
    } else {
      this.compositor.setLayer('hint', null);
    }
    const top = this.ui.surfaceTop();
    const overlay = this.ui.overlay();
    if (overlay) {
      const { w, h } = overlaySize(overlay, cols, surfaceRowsOf(this.rows, top));
      const box = lines.slice(next, next + h);
      next += h;
      const cells = new CellGrid(Math.max(1, w), Math.max(1, h));
      cells.blit(ansiToCells(box.join('\n'), cols, Math.max(1, h)), 0, 0, w, h, 0, 0);
      this.compositor.setLayer('overlay', { x: overlayLeft(overlay, w, cols), y: top + OVERLAY_TOP_GAP, w, h }, cells);
    } else {
      this.compositor.setLayer('overlay', null);
    }
    const noticeLines = lines.slice(next).filter((l) => l.length > 0);
    const all = ansiToCells(noticeLines.join('\n'), cols, Math.max(1, noticeLines.length));
    const width = noticeLines.length > 0 ? usedWidth(all) : 0;
    if (width > 0) {
      const notices = new CellGrid(width, noticeLines.length);
      notices.blit(all, 0, 0, width, noticeLines.length, 0, 0);
      this.compositor.setLayer('notices', { x: cols - width, y: top, w: width, h: noticeLines.length }, notices);
    } else {
      this.compositor.setLayer('notices', null);
    }
    this.schedulePaint();
  }

  /** `now`: a frame outside the paint interval is painted at once, not a loop turn later. */
  schedulePaint(now = false): void {
    if (this.paintPending || this.disposed) return;
    const wait = this.lastPaint + PAINT_INTERVAL_MS - performance.now();
    if (now && wait <= 0) return this.paint();
    this.paintPending = true;
    if (wait <= 0) setImmediate(this.paint);
    else this.paintTimer = setTimeout(this.paint, wait);
  }

  private readonly paint = (): void => {
    this.paintPending = false;
    this.paintTimer = null;
    if (this.disposed) return;
    this.lastPaint = performance.now();
    const out = this.compositor.render();
    if (out) this.stdout.write(out);
    if (this.lastSurface) this.requestInk();
  };

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.paintTimer) clearTimeout(this.paintTimer);
    this.ink?.dispose();
  }
}

/**
 * yoga-layout (Ink's layout engine) probes `typeof fetch` while it loads, and in Node 20 the
 * first touch of that global loads undici: about 40 ms of CPU and its memory, for nothing,
 * since the wasm is embedded. Hidden while Ink loads, the loader decodes the embedded copy.
 */
/** Under bin/codeCache.js the bundle runs from a V8 code cache, and such code cannot import()
 * itself (V8 keeps no host options for it: "Invalid host defined options"); the loader offers an
 * import() of a file beside the bundle instead. Null when the bundle was loaded otherwise. */
function importBesideBundle<T>(specifier: string): Promise<T> | null {
  const importer = (globalThis as { a1ImportBesideBundle?: (specifier: string) => Promise<T> }).a1ImportBesideBundle;
  return importer ? importer(specifier) : null;
}

async function importWithoutFetch<T>(load: () => Promise<T>): Promise<T> {
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (!fetchProperty?.configurable) return load();
  Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, 'fetch', fetchProperty);
  }
}

/** Columns up to the last cell that shows something (text, a background or an attribute such
 *  as inverse, which is how a notice shows without colour). */
function usedWidth(grid: CellGrid): number {
  let w = 0;
  for (let y = 0; y < grid.rows; y++) {
    for (let x = grid.cols - 1; x >= w; x--) {
      const i = grid.index(x, y);
      if (grid.bg[i] !== DEFAULT_COLOR || grid.fl[i] !== 0 || (grid.ch[i] !== ' ' && grid.ch[i] !== '')) {
        w = x + 1;
        break;
      }
    }
  }
  return w;
}
