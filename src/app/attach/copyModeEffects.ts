// Copy mode's effects for one client (the pure state is copyMode/state.ts): its pages and searches
// are asked of this client's holder connection (read-only), its copies go to the outer terminal
// as OSC 52, and its picture replaces the surface until it ends. The tab, its child and other
// clients never see it.
import type { InputEvent } from '../../input/events.js';
import type { HolderView } from '../../client/holderView.js';
import { atBottom, copyModeStep, startCopyMode, type CopyAction, type CopyModeState, type CopyStep } from '../copyMode/state.js';
import { copyModeIndicator, copyModePatch } from '../copyMode/view.js';
import { osc52 } from '../copyMode/osc52.js';
import type { Painter } from './painter.js';
import { WHEEL_LINES } from './geometry.js';

/** Copy mode on one view: its state arrives once the holder has said how long its history is. */
interface CopySession {
  view: HolderView;
  state: CopyModeState | null;
  /** Copy-mode keys and wheel notches that came while the state was on its way, in order. */
  early: InputEvent[];
}

export interface CopyModeHost {
  readonly painter: Painter;
  /** The viewed tab's holder connection, when there is one. */
  view(): HolderView | null;
  surfaceRows(): number;
  /** The screen row of the surface's first row. */
  surfaceTop(): number;
  renderUi(): void;
  addNotice(text: string): void;
  /** Writes to the outer terminal (a copy's OSC 52). */
  write(sequence: string): void;
}

export class CopyModeEffects {
  private copy: CopySession | null = null;

  constructor(private readonly host: CopyModeHost) {}

  get active(): boolean {
    return this.copy !== null;
  }

  /** The notice that says copy mode is on, if it is. */
  indicator(): string[] {
    const copying = this.copy?.state;
    return copying ? [copyModeIndicator(copying)] : this.copy ? ['copy · loading…'] : [];
  }

  /** Freezes this client's view of the tab on its history, `scroll` lines back from the live
   * screen; frames keep arriving underneath and show again on leaving. */
  async enter(scroll: number, press?: { x: number; y: number }): Promise<void> {
    const { painter } = this.host;
    const view = this.host.view();
    const surface = painter.lastSurface;
    if (this.copy || !view || !surface) return;
    if (!view.offers('history')) return this.host.addNotice("This tab's holder is an older version without scrollback; closing and reopening the tab upgrades it.");
    const session: CopySession = { view, state: null, early: [] };
    this.copy = session;
    painter.compositor.freezeSurface();
    this.host.renderUi();
    let head;
    try {
      head = await view.history(0, 0);
    } catch {
      return this.leave();
    }
    if (this.copy !== session) return;
    // The holder's buffer ends with its screen, so the child's cursor is that far from the end.
    const cursorLine = head.total - surface.rows + surface.cursor.y;
    const start = startCopyMode({
      total: head.total,
      cols: surface.cols,
      height: this.host.surfaceRows(),
      dropped: head.dropped,
      cursor: { line: Math.max(0, cursorLine), col: Math.max(0, surface.cursor.x) },
    });
    this.apply(session, start);
    if (scroll !== 0) this.step({ kind: 'scroll', lines: scroll });
    if (press) this.step({ kind: 'pointer', phase: 'press', row: press.y, col: press.x });
    for (const ev of session.early.splice(0)) if (this.copy === session) this.onEvent(ev);
  }

  leave(): void {
    if (!this.copy) return;
    this.copy = null;
    this.host.painter.compositor.showInstead(null);
    this.host.painter.schedulePaint();
    this.host.renderUi();
  }

  /** The holder connection `view` closed: a copy mode on it is gone with it. */
  onViewClosed(view: HolderView): void {
    if (this.copy?.view === view) this.leave();
  }

  /** The width copy mode's lines have, once its state is there. */
  get cols(): number | null {
    return this.copy?.state?.cols ?? null;
  }

  /** A surface frame came `cols` wide: the holder's width changed (its controller resized), and
   * copy mode's lines reflowed with it. */
  followWidth(cols: number): void {
    const copyCols = this.cols;
    if (copyCols !== null && cols !== copyCols) this.resize(cols);
  }

  /** The surface is `cols` wide now (the outer terminal or the holder's controller resized). */
  resize(cols: number): void {
    this.step({ kind: 'resize', cols, height: this.host.surfaceRows() });
  }

  onEvent(ev: InputEvent): void {
    if (this.copy && !this.copy.state) {
      this.copy.early.push(ev);
      return;
    }
    if (!this.copy?.state) return;
    if (ev.k === 'mouse') {
      const pointer = { row: ev.y - this.host.surfaceTop(), col: ev.x };
      if (ev.action === 'release') return this.step({ kind: 'pointer', phase: 'release', ...pointer });
      if (ev.button === 'left') return this.step({ kind: 'pointer', phase: ev.action === 'press' ? 'press' : 'drag', ...pointer });
      if (ev.action !== 'press') return;
      if (ev.button === 'wheelUp') this.step({ kind: 'scroll', lines: -WHEEL_LINES });
      else if (ev.button === 'wheelDown') {
        this.step({ kind: 'scroll', lines: WHEEL_LINES });
        // Wheeling down to the live screen returns to it, as the wheel brought one here.
        const after = this.copy?.state;
        if (after && atBottom(after)) this.leave();
      }
      return;
    }
    // Typed text arrives in runs ("k0w"); copy mode's keys are one character each.
    if (ev.k === 'text') for (const s of ev.s) this.step({ kind: 'key', event: { ...ev, s } });
    else this.step({ kind: 'key', event: ev });
  }

  private step(action: CopyAction): void {
    const session = this.copy;
    if (!session?.state) return;
    this.apply(session, copyModeStep(session.state, action));
  }

  /** Takes the step's state and carries out its effects. */
  private apply(session: CopySession, step: CopyStep): void {
    if (this.copy !== session) return;
    session.state = step.state;
    const view = session.view;
    const answer = (action: () => CopyAction) => {
      const s = this.copy === session ? session.state : null;
      if (s) this.apply(session, copyModeStep(s, action()));
    };
    // The holder connection closed under copy mode: the view it froze is gone with it.
    const lost = () => {
      if (this.copy === session) this.leave();
    };
    for (const effect of step.effects) {
      switch (effect.kind) {
        case 'fetch':
          view.history(effect.from, effect.count).then((page) => answer(() => ({ kind: 'page', page })), lost);
          break;
        case 'search':
          view.search(effect.text, 'forward').then(
            (r) => answer(() => ({ kind: 'searchResult', total: r.total, matches: r.matches, truncated: r.truncated, dropped: r.dropped })),
            lost,
          );
          break;
        case 'copy': {
          const encoded = osc52(effect.text);
          if (encoded.ok) this.host.write(encoded.sequence);
          else this.host.addNotice(encoded.error.message);
          break;
        }
        case 'notice':
          this.host.addNotice(effect.text);
          break;
        case 'exit':
          this.leave();
          return;
      }
    }
    if (this.copy !== session) return;
    // Until the view's lines arrive the frozen screen stays up, rather than a blank one.
    if (step.state.window.rows.length > 0) {
      this.host.painter.compositor.showInstead(copyModePatch(step.state));
      this.host.painter.schedulePaint();
    }
    this.host.renderUi();
  }
}
