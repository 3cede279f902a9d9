// What a1's own layers show (SPEC §8), from the services' state: the strip laid out, the notices,
// the first-run hint in its place, the open overlay, and the spinner of a chip that spins. Laying
// out the strip may give the hint a row of its own or take it away: the surface moves with it.
import type { Config } from '../../config.js';
import type { Keymap } from '../../keymap/keys.js';
import type { ControlLink } from '../../client/controlLink.js';
import { layoutStrip, type StripLayout } from '../strip/layout.js';
import { glyphFor } from '../ui/chip.js';
import type { UiProps } from '../ui/Ui.js';
import type { Overlay } from '../ui/overlayLayout.js';
import { cursorOffset } from '../overlays/lineEditor.js';
import type { Disposable } from '../../disposable.js';
import type { CopyModeEffects } from './copyModeEffects.js';
import { emptyStripHint, type HintLine } from './hintLine.js';
import type { HintPlace } from './hintPlacement.js';
import { tabStateNotice, type Notices } from './notices.js';
import type { Overlays } from './overlays.js';
import type { Painter } from './painter.js';
import type { AttachScreen } from './screen.js';
import type { StripMouse } from './stripMouse.js';
import type { UiSource } from './uiLayers.js';
import type { ViewLink } from './viewLink.js';

/** Spinner frames advance this often while a chip spins: smooth enough, and cheap. */
const SPINNER_INTERVAL_MS = 125;
const SPINNING: ReadonlySet<string> = new Set(['working', 'starting']);

export interface UiModelDeps {
  readonly config: Pick<Config, 'theme' | 'chipNumbers'>;
  /** a1's own UI in colour: false under NO_COLOR. */
  readonly colour: boolean;
  readonly keymap: Keymap;
  readonly screen: AttachScreen;
  readonly hint: HintLine;
  readonly notices: Notices;
  readonly control: ControlLink;
  readonly viewLink: ViewLink;
  readonly copyMode: CopyModeEffects;
  readonly overlays: Overlays;
  readonly stripMouse: Pick<StripMouse, 'hovered' | 'drag'>;
  readonly painter: Pick<Painter, 'moveSurface' | 'resize'>;
  /** Draws the UI again (the spinner's next frame). */
  renderUi(): void;
}

export class UiModel implements UiSource, Disposable {
  /** Advances while a chip spins (working, starting); stopped when none does, to stay idle. */
  private spinnerFrame = 0;
  private spinnerTimer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(private readonly d: UiModelDeps) {
    // Before the first tab's size is asked for: whether the hint takes a row from it.
    d.hint.relay(d.screen.cols, this.layoutStrip());
  }

  props(): UiProps {
    const { overlays, viewLink, control, screen, hint } = this.d;
    const closeKey = this.d.keymap.byAction.get('closeTab')?.[0] ?? 'alt+w';
    const viewedTab = control.tabs.find((t) => t.id === viewLink.viewed);
    const notices = [...this.d.copyMode.indicator(), ...this.d.notices.current(), ...tabStateNotice(viewedTab, viewLink.viewState, closeKey)];
    if (overlays.rename?.error) notices.unshift(overlays.rename.error);
    screen.strip = this.layoutStrip();
    if (hint.relay(screen.cols, screen.strip)) this.onSurfaceMoved();
    this.keepSpinning(control.tabs.some((t) => SPINNING.has(glyphFor(t))));
    const { cols, rows: surfaceRows } = screen.surfaceSize();
    const { theme } = this.d.config;
    return { cols, strip: screen.strip, theme, colour: this.d.colour, notices, hint: hint.drawn?.text ?? null, overlay: overlays.overlay, surfaceRows };
  }

  overlay(): Overlay | null {
    return this.d.overlays.overlay;
  }

  hint(): HintPlace | null {
    return this.d.hint.drawn;
  }

  /** The outer terminal resized: the tab's new size already leaves the hint's row, if it has one
   * at this width. */
  resize(): void {
    const { screen, copyMode, viewLink } = this.d;
    screen.measure();
    this.d.hint.relay(screen.cols, this.layoutStrip());
    this.d.painter.resize(screen.cols, screen.rows);
    viewLink.resize();
    const copyCols = copyMode.cols;
    // The controller's new width reflows the holder's lines; a viewer's does not.
    if (copyCols !== null) copyMode.resize(viewLink.view?.isController ? screen.cols : copyCols);
    this.d.renderUi();
  }

  private layoutStrip(): StripLayout {
    const { overlays, stripMouse } = this.d;
    const rename = overlays.rename;
    return layoutStrip({
      cols: this.d.screen.cols,
      tabs: this.d.control.tabs.map((t) => ({ id: t.id, name: t.name, glyph: glyphFor(t) })),
      viewed: this.d.viewLink.viewed,
      hovered: stripMouse.hovered,
      drag: stripMouse.drag,
      rename: rename ? { tabId: rename.tabId, text: rename.text, cursor: cursorOffset(rename), error: rename.error } : null,
      spinnerFrame: this.spinnerFrame,
      emptyHint: emptyStripHint(this.d.keymap),
      numbers: this.d.config.chipNumbers,
    });
  }

  /** The hint took or left its own row: the tab is resized to the rows left, so no program
   *  draws under the hint, and gets its row back when the hint goes. */
  private onSurfaceMoved(): void {
    const { copyMode } = this.d;
    this.d.painter.moveSurface();
    this.d.viewLink.resize();
    const copyCols = copyMode.cols;
    if (copyCols !== null) copyMode.resize(copyCols);
  }

  private keepSpinning(spinning: boolean): void {
    if (spinning && !this.spinnerTimer && !this.disposed) {
      this.spinnerTimer = setInterval(() => {
        this.spinnerFrame++;
        this.d.renderUi();
      }, SPINNER_INTERVAL_MS);
      this.spinnerTimer.unref();
    } else if (!spinning && this.spinnerTimer) {
      clearInterval(this.spinnerTimer);
      this.spinnerTimer = null;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.keepSpinning(false);
  }
}
