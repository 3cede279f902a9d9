// The one writer of the outer screen's cells (SPEC §8): the viewed surface and a1's own layers
// (attach/uiLayers.ts) composited, and painted at most once per short interval.
import { Compositor } from '../compositor.js';
import type { SurfacePatch } from '../../surface/types.js';
import type { Disposable } from '../../disposable.js';
import { Emitter } from '../../emitter.js';

/** Paints are coalesced within one event-loop turn, and at most one per this interval: the
 * holder already paces frames, so a short gap keeps a keystroke's echo off any timer. */
const PAINT_INTERVAL_MS = 4;

/** Where the surface goes on the outer screen, and the screen's size at the start. */
export interface SurfacePlace {
  readonly cols: number;
  readonly rows: number;
  /** The screen row of the surface's first row. */
  surfaceTop(): number;
}

export class Painter implements Disposable {
  readonly compositor: Compositor;
  /** The viewed tab's last surface, kept for a resize and for copy mode. */
  lastSurface: SurfacePatch | null = null;
  private readonly surfacePainted = new Emitter();
  /** A paint with a surface on screen (the first one loads the UI's layers). */
  readonly onSurfacePainted = this.surfacePainted.event;
  private paintTimer: NodeJS.Timeout | null = null;
  private paintPending = false;
  private lastPaint = 0;
  private disposed = false;

  constructor(
    private readonly stdout: NodeJS.WriteStream,
    private readonly place: SurfacePlace,
    /** The outer terminal draws underline styles and colours (outerTerminal.styledUnderlines). */
    styledUnderlines = false,
  ) {
    this.compositor = new Compositor(place.cols, place.rows, styledUnderlines);
  }

  resize(cols: number, rows: number): void {
    this.compositor.resize(cols, rows);
    this.moveSurface();
  }

  /** The surface's first row moved (the first-run hint took or left its own row). */
  moveSurface(): void {
    if (this.lastSurface) this.compositor.setSurface({ ...this.lastSurface, full: true }, this.place.surfaceTop());
  }

  setSurface(patch: SurfacePatch): void {
    this.lastSurface = patch;
    this.compositor.setSurface(patch, this.place.surfaceTop());
  }

  /** No tab is viewed. */
  clearSurface(): void {
    this.lastSurface = null;
    this.compositor.clearSurface();
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
    if (this.lastSurface) this.surfacePainted.fire();
  };

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.paintTimer) clearTimeout(this.paintTimer);
    this.surfacePainted.dispose();
  }
}
