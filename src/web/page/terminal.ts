// The viewed tab's terminal: xterm.js, painted from surface patches, its font sized to the box.
import { Terminal } from '@xterm/xterm';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import type { SurfacePatch } from '../../surface/types.js';
import { applyPatch } from './ansi.js';
import { MAX_FONT_PX, fontToFit, gridThatFits } from './layout.js';
import { el, isPhone, state } from './model.js';

/** The font "Fit to screen" sizes the tab for: readable on each kind of screen. */
const FIT_FONT_PX = { phone: 12, desktop: 14 };
const DESKTOP_MAX_FONT_PX = 14;
const FONT_FAMILY = 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace';

export const term = new Terminal({
  cols: 80,
  rows: 24,
  // The page shows the tab's screen only; its history is the tab's (copy mode in a terminal).
  scrollback: 0,
  fontFamily: FONT_FAMILY,
  fontSize: 13,
  allowProposedApi: true,
  cursorBlink: false,
  theme: { background: '#0b0c0f', foreground: '#d6dae1', cursor: '#d6dae1', selectionBackground: '#3a4a66' },
});
term.loadAddon(new Unicode11Addon());
term.unicode.activeVersion = '11';
term.open(el.term);
// Pastes arrive bracketed, so they reach the tab as one paste event (the holder encodes it for
// the child's own modes).
term.write('\x1b[?2004h');
// Without history xterm.js turns the wheel into arrow keys; the page scrolls its box instead.
term.attachCustomWheelEventHandler(() => false);

/** xterm.js's keys and pastes, as it emits them. */
export function onTerminalData(handler: (data: string) => void): void {
  term.onData(handler);
}

/** The screen's rows as text, trailing blanks trimmed (tests read it). */
export function screenText(): string {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < term.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true).replace(/ +$/, '') ?? '');
  return lines.join('\n');
}

/** Clears the screen for another tab, whose full patch follows. */
export function clearTerminal(): void {
  term.write('\x1b[0m\x1b[H\x1b[2J');
}

export function paint(patch: SurfacePatch): void {
  const resized = state.surfaceSize?.cols !== patch.cols || state.surfaceSize?.rows !== patch.rows;
  state.surfaceSize = { cols: patch.cols, rows: patch.rows };
  applyPatch(term, patch);
  if (resized) fitFont();
}

/** A cell's size in CSS px at the current font, as xterm.js laid it out. */
function cellSize(): { w: number; h: number } | null {
  const screen = el.term.querySelector<HTMLElement>('.xterm-screen');
  if (!screen || term.cols === 0 || term.rows === 0) return null;
  const w = screen.offsetWidth / term.cols;
  const h = screen.offsetHeight / term.rows;
  return w > 0 && h > 0 ? { w, h } : null;
}

let measuredWidthPerPx: number | null = null;

/** A cell's width per pixel of font size, measured once from the monospace font. */
function cellWidthPerPx(): number {
  if (measuredWidthPerPx !== null) return measuredWidthPerPx;
  const ctx = document.createElement('canvas').getContext('2d');
  let ratio = 0.6;
  if (ctx) {
    ctx.font = `100px ${FONT_FAMILY}`;
    const w = ctx.measureText('W'.repeat(10)).width / 1000;
    if (w > 0) ratio = w;
  }
  measuredWidthPerPx = ratio;
  return ratio;
}

/** The terminal's box inside its padding, in CSS px. */
function boxOf(): { width: number; height: number } {
  const style = getComputedStyle(el.termWrap);
  return {
    width: el.termWrap.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
    height: el.termWrap.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
  };
}

/** The font that shows the tab's columns in the box's width; sideways scrolling below the minimum. */
export function fitFont(): void {
  const cols = state.surfaceSize?.cols ?? term.cols;
  // Two pixels spare: xterm.js rounds cells to device pixels.
  const { fontPx, scroll } = fontToFit(cols, boxOf().width - 2, cellWidthPerPx());
  const size = Math.min(fontPx, isPhone() ? MAX_FONT_PX : DESKTOP_MAX_FONT_PX);
  if (term.options.fontSize !== size) term.options.fontSize = size;
  el.termWrap.classList.toggle('scroll-x', scroll);
}

/** The grid that fits the box at a readable font (not at the font that squeezed the tab in). */
export function gridForScreen(): { cols: number; rows: number } | null {
  const cell = cellSize();
  if (!cell) return null;
  const scale = (isPhone() ? FIT_FONT_PX.phone : FIT_FONT_PX.desktop) / (term.options.fontSize ?? FIT_FONT_PX.desktop);
  const box = boxOf();
  return gridThatFits(box.width, box.height, cell.w * scale, cell.h * scale);
}
