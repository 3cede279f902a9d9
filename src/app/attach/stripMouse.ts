// The mouse on the strip (SPEC §8): hovering highlights a chip, a left click views it, held or
// moved it drags to a new place, a right click opens its menu at the chip, `+` creates a tab and
// an overflow chip lists every tab with its glyph, starting on the one that chip points to.
import { ServerError } from '../../client/serverClient.js';
import type { InputEvent } from '../../input/events.js';
import type { ActionId } from '../../keymap/actions.js';
import { chipMenu, tabsMenu } from '../overlays/menu.js';
import { dropIndexAt, hitTest, itemAt, type StripLayout, type StripTarget } from '../strip/layout.js';
import { glyphText } from '../../status/glyphs.js';
import { glyphFor } from '../ui/chip.js';
import type { Disposable } from '../../disposable.js';
import { Emitter } from '../../emitter.js';
import type { ControlLink } from '../../client/controlLink.js';
import { STRIP_ROWS } from './geometry.js';
import type { Overlays } from './overlays.js';
import type { ViewLink } from './viewLink.js';

/** A press held this long on a chip starts a drag even without moving (SPEC §8). */
const DRAG_HOLD_MS = 250;

export interface StripMouseDeps {
  readonly control: ControlLink;
  readonly overlays: Overlays;
  readonly viewLink: Pick<ViewLink, 'viewed' | 'switchTo'>;
  /** The strip as last laid out. */
  strip(): StripLayout | null;
  addNotice(text: string): void;
  renderUi(): void;
}

export class StripMouse implements Disposable {
  /** A left press on a chip, which becomes a drag after DRAG_HOLD_MS or a move. */
  private press: { tabId: string; x: number; timer: NodeJS.Timeout } | null = null;
  drag: { tabId: string; dropIndex: number } | null = null;
  hovered: StripTarget | null = null;
  private readonly actions = new Emitter<ActionId>();
  /** A click asked for a shortcut's action (`+`: a new tab). */
  readonly onAction = this.actions.event;

  constructor(private readonly host: StripMouseDeps) {}

  /** A press on a chip is held: the mouse belongs to the strip until its release. */
  get pressed(): boolean {
    return this.press !== null;
  }

  onMouse(ev: Extract<InputEvent, { k: 'mouse' }>): void {
    const { host } = this;
    const strip = host.strip();
    // While a press is held every report comes here, from anywhere: only the strip's row has chips.
    const target = strip && ev.y < STRIP_ROWS ? hitTest(strip, ev.x) : null;
    if (ev.action === 'move') {
      if (this.press && ev.button === 'left') {
        if (ev.x !== this.press.x) this.startDrag();
        if (this.drag && strip) this.setDrop(dropIndexAt(strip, ev.x));
        return;
      }
      // Motion with no button held while a press is: its release was never reported (let go
      // outside the window), so the press ends here and moves nothing.
      if (this.press && ev.button === 'none') this.cancelPress();
      this.setHovered(target);
      return;
    }
    if (ev.action === 'release') {
      this.endDrag(ev.x);
      return;
    }
    if (ev.action !== 'press') return;
    // A new press while one is held: the first one's release was lost. It moves nothing.
    if (this.press) this.cancelPress();
    const overlays = host.overlays;
    // A click elsewhere cancels an open editor or overlay.
    if (overlays.rename && !(target?.kind === 'chip' && target.tabId === overlays.rename.tabId)) overlays.rename = null;
    if (overlays.overlay) overlays.open(null);
    if (!target) return host.renderUi();
    // A menu opens at the chip it was opened from.
    const at = strip ? itemAt(strip, ev.x)?.x : undefined;
    if (ev.button === 'right' && target.kind === 'chip') {
      overlays.menuTab = target.tabId;
      return overlays.open({ kind: 'menu', state: chipMenu(), at });
    }
    if (ev.button !== 'left') return;
    if (target.kind === 'chip') {
      host.viewLink.switchTo(target.tabId);
      // Held for a moment or moved, the press becomes a drag that reorders (SPEC §8).
      this.press = { tabId: target.tabId, x: ev.x, timer: setTimeout(() => this.startDrag(), DRAG_HOLD_MS) };
    } else if (target.kind === 'plus') this.actions.fire('newTab');
    else if (target.kind === 'overflow') {
      const chip = strip ? itemAt(strip, ev.x) : null;
      const focus = chip?.kind === 'overflow' ? chip.focusTabId : undefined;
      const tabs = host.control.tabs.map((t) => ({ id: t.id, name: t.name, glyph: glyphText(glyphFor(t), 0) }));
      overlays.menuTab = null;
      overlays.open({ kind: 'menu', state: tabsMenu(tabs, host.viewLink.viewed, focus), at });
    }
  }

  /** The pointer is off the strip. */
  setHovered(target: StripTarget | null): void {
    if (JSON.stringify(target) === JSON.stringify(this.hovered)) return;
    this.hovered = target;
    this.host.renderUi();
  }

  private order(): string[] {
    return this.host.control.tabs.map((t) => t.id);
  }

  private startDrag(): void {
    if (!this.press || this.drag) return;
    const at = this.order().indexOf(this.press.tabId);
    this.drag = { tabId: this.press.tabId, dropIndex: at };
    this.host.renderUi();
  }

  private setDrop(dropIndex: number): void {
    if (!this.drag || this.drag.dropIndex === dropIndex) return;
    this.drag = { ...this.drag, dropIndex };
    this.host.renderUi();
  }

  /** Ends a held press (and its drag) without moving anything. */
  private cancelPress(): void {
    if (this.press) clearTimeout(this.press.timer);
    const dragging = this.drag !== null;
    this.press = null;
    this.drag = null;
    if (dragging) this.host.renderUi();
  }

  private endDrag(x: number): void {
    const press = this.press;
    const drag = this.drag;
    if (press) clearTimeout(press.timer);
    this.press = null;
    this.drag = null;
    const strip = this.host.strip();
    if (!drag || !strip) return;
    const insertion = dropIndexAt(strip, x);
    const from = this.order().indexOf(drag.tabId);
    const to = insertion > from ? insertion - 1 : insertion;
    this.host.renderUi();
    if (from < 0 || to === from) return;
    void this.host.control
      .request('reorder', { tabId: drag.tabId, toIndex: to, expectedRev: this.host.control.rev })
      .catch((err) => this.host.addNotice(err instanceof ServerError ? err.message : 'The tab was not moved.'));
  }

  dispose(): void {
    if (this.press) clearTimeout(this.press.timer);
    this.actions.dispose();
  }
}
