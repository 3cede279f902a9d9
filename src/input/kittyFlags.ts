// The kitty keyboard protocol's progressive-enhancement flags as a terminal keeps them: one stack
// per screen (main and alternate are independent, so a full-screen program can change its own
// without knowing the shell's), changed by push, pop and set, reported to a query, cleared by a
// full reset. A pure reducer, following kitty's own screen.c.
import { KITTY_FLAGS_MASK } from './kittyKeys.js';

/** Entries a stack keeps; a push onto a full one evicts the oldest (the protocol asks for a
 * bound against a program that only pushes). kitty keeps 8. */
export const KITTY_STACK_DEPTH = 8;

export type Screen = 'main' | 'alternate';

/** Bottom to top; the current flags are the top entry's, or 0 when the stack is empty. */
export interface KittyStacks {
  readonly main: readonly number[];
  readonly alternate: readonly number[];
}

export const NO_KITTY_FLAGS: KittyStacks = Object.freeze({ main: Object.freeze([]), alternate: Object.freeze([]) });

export type KittyOp =
  /** `CSI > flags u` */
  | { op: 'push'; flags: number }
  /** `CSI < n u` */
  | { op: 'pop'; count: number }
  /** `CSI = flags ; mode u`: 1 sets exactly these, 2 adds them, 3 removes them. */
  | { op: 'set'; flags: number; mode: number };

export function currentFlags(stacks: KittyStacks, screen: Screen): number {
  const stack = stacks[screen];
  return stack.length === 0 ? 0 : stack[stack.length - 1];
}

export function applyKittyOp(stacks: KittyStacks, screen: Screen, op: KittyOp): KittyStacks {
  const stack = stacks[screen];
  const next = ((): readonly number[] => {
    switch (op.op) {
      case 'push': {
        // As in kitty, a push onto an empty stack keeps the flags it replaces (0) below it.
        const below = stack.length === 0 ? [0] : stack;
        return [...below, op.flags & KITTY_FLAGS_MASK].slice(-KITTY_STACK_DEPTH);
      }
      case 'pop':
        return stack.slice(0, Math.max(0, stack.length - Math.max(0, op.count)));
      case 'set': {
        const top = currentFlags(stacks, screen);
        const flags = op.flags & KITTY_FLAGS_MASK;
        const value = op.mode === 1 ? flags : op.mode === 2 ? top | flags : op.mode === 3 ? top & ~flags : null;
        if (value === null) return stack;
        return stack.length === 0 ? [value] : [...stack.slice(0, -1), value];
      }
    }
  })();
  return next === stack ? stacks : { ...stacks, [screen]: next };
}

/**
 * The operation a `CSI {>,<,=} ... u` stands for, from its private marker and numeric
 * parameters (0 where one was omitted, as xterm's parser gives them). An omitted pop count is 1.
 */
export function kittyOpOf(marker: '>' | '<' | '=', params: readonly number[]): KittyOp {
  const first = params[0] ?? 0;
  switch (marker) {
    case '>':
      return { op: 'push', flags: first };
    case '<':
      return { op: 'pop', count: first === 0 ? 1 : first };
    case '=':
      return { op: 'set', flags: first, mode: params[1] || 1 };
  }
}

/** The answer to `CSI ? u`. */
export function kittyFlagsReport(flags: number): string {
  return `\x1b[?${flags}u`;
}
