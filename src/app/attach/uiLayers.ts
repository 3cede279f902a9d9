// a1's own layers on the outer screen (SPEC §8): Ink draws the strip, the first-run hint, an
// overlay and the notices, and each becomes a layer of the painter's compositor.
import { ansiToCells as inkCells } from '../ansiLayer.js';
import { CellGrid } from '../cells.js';
import { DEFAULT_COLOR } from '../../surface/types.js';
import type { InkLayer } from '../inkLayer.js';
import type { UiProps } from '../ui/Ui.js';
import { overlayLeft, overlaySize, type Overlay } from '../ui/overlayLayout.js';
import type { Disposable } from '../../disposable.js';
import { OVERLAY_TOP_GAP, STRIP_ROWS, surfaceRowsOf } from './geometry.js';
import type { HintPlace } from './hintPlacement.js';
import { textWidth } from '../strip/width.js';
import { enableNativeStrings } from '../../protocol/nativeStrings.js';
import type { Painter } from './painter.js';

/** What the layers show. */
export interface UiSource {
  /** The UI as it should look now (Ink draws it). */
  props(): UiProps;
  /** The open overlay, whose box Ink drew under the strip. */
  overlay(): Overlay | null;
  /** The first-run hint's place, whose line Ink drew right after the strip's; null when none. */
  hint(): HintPlace | null;
}

export class UiLayers implements Disposable {
  private ink: InkLayer | null = null;
  private inkRequested = false;
  private disposed = false;

  constructor(
    private readonly painter: Pick<Painter, 'compositor' | 'schedulePaint'>,
    private readonly screen: { readonly cols: number; readonly rows: number; surfaceTop(): number },
    private readonly ui: UiSource,
    /** False under NO_COLOR: a1's own layers (strip, overlay, notices) lose every colour, as a
     *  net under the components' monochrome styles; the tab's surface keeps its own. */
    private readonly colour = true,
  ) {}

  /** Draws the UI again from its props, once Ink has loaded. */
  render(): void {
    if (!this.disposed) this.ink?.update(this.ui.props(), this.screen.rows);
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
    this.ink = new InkLayer(this.ui.props(), this.screen.rows, (frame) => this.onInkFrame(frame));
  }

  private onInkFrame(frame: string): void {
    const { cols, rows } = this.screen;
    const { compositor } = this.painter;
    const ansiToCells = (text: string, w: number, h: number): CellGrid => {
      const grid = inkCells(text, w, h);
      if (!this.colour) {
        grid.fg.fill(DEFAULT_COLOR);
        grid.bg.fill(DEFAULT_COLOR);
      }
      return grid;
    };
    const lines = frame.split('\n');
    compositor.setLayer('strip', { x: 0, y: 0, w: cols, h: STRIP_ROWS }, ansiToCells(lines.slice(0, STRIP_ROWS).join('\n'), cols, STRIP_ROWS));
    let next = STRIP_ROWS;
    const hint = this.ui.hint();
    if (hint) {
      const w = Math.min(cols - hint.x, textWidth(hint.text));
      const cells = new CellGrid(Math.max(1, w), 1);
      cells.blit(ansiToCells(lines[next] ?? '', cols, 1), 0, 0, w, 1, 0, 0);
      compositor.setLayer('hint', { x: hint.x, y: hint.row === 'strip' ? 0 : STRIP_ROWS, w, h: 1 }, cells);
      next += 1;
    } else {
      compositor.setLayer('hint', null);
    }
    const top = this.screen.surfaceTop();
    const overlay = this.ui.overlay();
    if (overlay) {
      const { w, h } = overlaySize(overlay, cols, surfaceRowsOf(rows, top));
      const box = lines.slice(next, next + h);
      next += h;
      const cells = new CellGrid(Math.max(1, w), Math.max(1, h));
      cells.blit(ansiToCells(box.join('\n'), cols, Math.max(1, h)), 0, 0, w, h, 0, 0);
      compositor.setLayer('overlay', { x: overlayLeft(overlay, w, cols), y: top + OVERLAY_TOP_GAP, w, h }, cells);
    } else {
      compositor.setLayer('overlay', null);
    }
    const noticeLines = lines.slice(next).filter((l) => l.length > 0);
    const all = ansiToCells(noticeLines.join('\n'), cols, Math.max(1, noticeLines.length));
    const width = noticeLines.length > 0 ? usedWidth(all) : 0;
    if (width > 0) {
      const notices = new CellGrid(width, noticeLines.length);
      notices.blit(all, 0, 0, width, noticeLines.length, 0, 0);
      compositor.setLayer('notices', { x: cols - width, y: top, w: width, h: noticeLines.length }, notices);
    } else {
      compositor.setLayer('notices', null);
    }
    this.painter.schedulePaint();
  }

  dispose(): void {
    this.disposed = true;
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
