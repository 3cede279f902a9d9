// First launch, typing, colours and cursor, and detaching with Ctrl+C twice.
import { describe, it, expect, afterEach } from 'vitest';
import xtermHeadless from '@xterm/headless';
import { e2e, PROMPT, PROMPT_SEEN, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';

const { Terminal } = xtermHeadless;

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

describe('attach', () => {
  it('shows the strip with one agent chip and a working shell', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const screen = await a1.waitForScreen((lines) => /\bagent\b/.test(lines[0]) && lines[0].includes('+'), undefined, 'strip with agent and +');
    // The one chip is the viewed one: in brackets, its padding (issue 18: not marked by colour alone).
    expect(screen[0]).toMatch(/^\[agent\]\s+\+/);
    a1.write('echo $((6*7))\r');
    await a1.waitForScreen((lines) => lines.some((l) => l.trim() === '42'), undefined, '42 on its own line');
    expect(a1.bufferType()).toBe('alternate');
  });

  it('renders colours and places the cursor as a reference terminal does', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const bytes = '\x1b[1;31mred\x1b[0m \x1b[38;5;82mgreen\x1b[0m \x1b[48;2;10;20;30;3mrgb\x1b[0m \x1b[4;7mul\x1b[0m';
    a1.write(`clear; printf '${bytes.replace(/\x1b/g, '\\033')}'; printf '\\n'\r`);
    const screen = await a1.waitForScreen((lines) => lines.some((l) => l.startsWith('red green rgb ul')), undefined, 'the coloured line');
    const y = screen.findIndex((l) => l.startsWith('red green rgb ul'));
    const ref = new Terminal({ cols: 120, rows: 10, allowProposedApi: true });
    await new Promise<void>((r) => ref.write(bytes, r));
    const line = ref.buffer.active.getLine(0)!;
    for (let x = 0; x < 'red green rgb ul'.length; x++) {
      const want = line.getCell(x)!;
      const got = a1.cell(x, y);
      // A blank cell may be written as a space or left erased; both show the same.
      expect({ x, chars: got.chars || ' ', fg: got.fg, bg: got.bg, bold: got.bold, italic: got.italic, underline: got.underline, inverse: got.inverse }).toEqual({
        x,
        chars: want.getChars() || ' ',
        fg: want.isFgDefault() ? -1 : want.isFgRGB() ? 0x1000000 | want.getFgColor() : want.getFgColor(),
        bg: want.isBgDefault() ? -1 : want.isBgRGB() ? 0x1000000 | want.getBgColor() : want.getBgColor(),
        bold: want.isBold() !== 0,
        italic: want.isItalic() !== 0,
        underline: want.isUnderline() !== 0,
        inverse: want.isInverse() !== 0,
      });
    }
    // The real cursor sits where the child's is: after the prompt on the line below.
    await waitFor(async () => {
      await a1.flush();
      const c = a1.cursor();
      return c.y === y + 1 && c.x === PROMPT.length;
    }, { what: 'cursor after the prompt' });
    ref.dispose();
  });

  it('Ctrl+C twice detaches, the tab got one ^C, the terminal is restored, the tab keeps running', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write("trap 'echo GOT-INT >> ints.txt' INT; echo arm$((1+1))ed\r");
    await a1.waitForText('arm2ed');
    const mark = a1.mark();
    a1.write('\x03');
    a1.write('\x03');
    const exit = await a1.exited;
    expect(exit.exitCode).toBe(0);
    await a1.flush();
    expect(a1.bufferType()).toBe('normal');
    const out = a1.rawOutput(mark);
    for (const off of ['\x1b[?1000l', '\x1b[?1002l', '\x1b[?1006l', '\x1b[?2004l', '\x1b[?1049l']) expect(out).toContain(off);
    expect(a1.screenText().join('\n')).toContain('1 tab still running · run a1 to return');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const ints = () => {
      try {
        return fs.readFileSync(path.join(t.home.dir, 'ints.txt'), 'utf8');
      } catch {
        return '';
      }
    };
    await waitFor(() => ints().includes('GOT-INT'), { what: 'the trap ran' });
    const listed = await t.run('tabs');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/agent\s+running/);
    expect(ints().match(/GOT-INT/g)).toHaveLength(1);
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)('restores the terminal on %s and leaves the tab running', async (signal) => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await a1.waitForText('agent');
    const mark = a1.mark();
    process.kill(a1.pid, signal);
    await a1.exited;
    await a1.flush();
    expect(a1.bufferType()).toBe('normal');
    const out = a1.rawOutput(mark);
    for (const off of ['\x1b[?1000l', '\x1b[?1002l', '\x1b[?1006l', '\x1b[?2004l', '\x1b[?1004l', '\x1b[?1049l']) expect(out).toContain(off);
    const listed = await t.run('tabs', '--json');
    expect(JSON.parse(listed.stdout).tabs[0].status).toBe('running');
  });
});
