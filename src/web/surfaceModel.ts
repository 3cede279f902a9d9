// The viewed tab's surface as the web process last heard it (issue 20): every patch is applied
// here, so a page whose socket backed up is sent the whole surface once it drains, instead of the
// patches it missed. Pure.
import type { Row, SurfacePatch } from '../surface/types.js';

export class SurfaceModel {
  private last: SurfacePatch | null = null;
  private rows = new Map<number, Row>();

  apply(patch: SurfacePatch): void {
    if (patch.full || !this.last || patch.cols !== this.last.cols || patch.rows !== this.last.rows) this.rows = new Map();
    for (const line of patch.lines) this.rows.set(line.y, line);
    // A smaller surface drops the rows below it.
    for (const y of this.rows.keys()) if (y >= patch.rows) this.rows.delete(y);
    this.last = patch;
  }

  /** The whole surface as one full patch, or null before the first patch. */
  full(): SurfacePatch | null {
    if (!this.last) return null;
    const lines = [...this.rows.values()].sort((a, b) => a.y - b.y);
    return { ...this.last, full: true, lines };
  }

  clear(): void {
    this.last = null;
    this.rows = new Map();
  }
}
