// What the child asks of the terminal reaches the outer one: OSC 52 clipboard writes (as the
// config allows; reads are never answered), OSC 8 hyperlinks and the cursor shape (DECSCUSR);
// the title it sets shows in the /tabs picker.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { detach, e2e, KEY, PROMPT_SEEN, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

// base64 of 'clip-42': the shell computes the text, so the typed command line never contains it.
const ESC = '\x1b';

const CLIP_WRITE = '\x1b]52;c;Y2xpcC00Mg==\x07';
const PRINT_CLIP = "clear; printf '\\033]52;c;%s\\a' \"$(printf 'clip-%s' $((6*7)) | base64)\"; echo clip-$((1+1))-sent\r";

describe('passing through what the child asks of the terminal', () => {
  it('passes a child\'s OSC 52 clipboard write to the outer terminal', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const mark = a1.mark();
    a1.write(PRINT_CLIP);
    await a1.waitForText('clip-2-sent');
    await waitFor(() => a1.rawOutput(mark).includes(CLIP_WRITE), { what: 'the OSC 52 write on the outer terminal' });
    expect(a1.rawOutput(mark).split(CLIP_WRITE)).toHaveLength(2);
  });

  it('drops the clipboard write when allowClipboardWrite is false', async () => {
    t = e2e({ allowClipboardWrite: false });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const mark = a1.mark();
    a1.write(PRINT_CLIP);
    await a1.waitForText('clip-2-sent');
    // The holder sends the write before the frame that shows the marker, on the same connection.
    await a1.flush();
    expect(a1.rawOutput(mark)).not.toContain('\x1b]52');
  });

  it('never answers a clipboard read', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const mark = a1.mark();
    // A cursor-position query right after the read: the model answers it, so whatever the child
    // reads up to its `R` is all it got back; an OSC 52 answer would come first.
    a1.write("clear; printf '\\033]52;c;?\\a\\033[6n'; read -rs -d R reply; printf 'REPLY<%s>\\n' \"$reply\" | od -c | tr -s ' ' | head -3; echo read-$((2+2))-done\r");
    const text = (await a1.waitForText('read-4-done')).join('\n');
    // The child got the position report and nothing before it.
    expect(text).toMatch(/R E P L Y < 033 \[ [\d ]+; [\d ]+>/);
    expect(a1.rawOutput(mark)).not.toContain('\x1b]52');
  });

  it('keeps OSC 8 hyperlinks hyperlinks on the outer terminal, closed where the child closed them', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const mark = a1.mark();
    // The shell computes the target and text, so the typed command line contains neither.
    a1.write("clear; printf '\\033]8;;https://example.com/doc-%s\\033\\\\link-%s\\033]8;;\\033\\\\ after\\n' $((6*7)) $((6*7))\r");
    await a1.waitForText(/^link-42 after$/);
    // Between the text and the close the client may set attributes or move the cursor past cells
    // that are already right (the space before "after"), but it writes no other cell.
    await waitFor(() => /\x1b\]8;;https:\/\/example\.com\/doc-42\x1b\\(?:\x1b\[[\d;]*[mH])*link-42(?:\x1b\[[\d;]*[mH])*\x1b\]8;;\x1b\\/.test(a1.rawOutput(mark)), {
      what: 'link-42 wrapped in its OSC 8 link on the outer terminal',
    });
    // Only the linked text is linked: the link is opened once, and " after" is outside it.
    expect(a1.rawOutput(mark).split('\x1b]8;;https://example.com/doc-42').length).toBe(2);
    expect(a1.rawOutput(mark)).not.toMatch(/doc-42\x1b\\[^\x1b]*link-42 after/);
  });

  it('shows the title the child sets in the /tabs picker, and follows its changes there', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write("printf '\\033]2;%s\\007' \"title-$((6*7))\"; echo titled\r");
    await a1.waitForText(/^titled$/);
    a1.write(KEY.tabsPicker);
    await a1.waitForScreen((lines) => lines.slice(1).some((l) => / running +title-42 /.test(l)), undefined, 'the title in the picker');
    // A new title while the picker is open: the row follows it. The shell waits for a file the
    // test writes once the picker is up.
    a1.write(ESC);
    await a1.waitForScreen((lines) => !lines.slice(1).some((l) => /title-42/.test(l)), undefined, 'the picker closed');
    const go = path.join(t.home.dir, 'go');
    a1.write(`while [ ! -e ${go} ]; do sleep 0.05; done; printf '\\033]0;%s\\007' "title-$((6*7+1))"\r`);
    a1.write(KEY.tabsPicker);
    await a1.waitForScreen((lines) => lines.slice(1).some((l) => / running +title-42 /.test(l)), undefined, 'the picker open on the old title');
    fs.writeFileSync(go, '');
    await a1.waitForScreen((lines) => lines.slice(1).some((l) => / running +title-43 /.test(l)), undefined, 'the new title in the open picker');
    // The filter finds a tab by its title.
    a1.write('title-43');
    await a1.waitForScreen((lines) => lines.slice(1).some((l) => /title-43/.test(l)) && !lines.some((l) => /no tab matches/.test(l)), undefined, 'the tab found by its title');
    a1.write(ESC);
  });

  it('applies the cursor shape the child sets, and resets it on exit', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const mark = a1.mark();
    a1.write("printf '\\033[6 q'; echo shape-$((2+3))\r");
    await a1.waitForText('shape-5');
    await waitFor(() => a1.rawOutput(mark).includes('\x1b[6 q'), { what: 'a steady bar cursor on the outer terminal' });
    const blink = a1.mark();
    a1.write("printf '\\033[3 q'; echo shape-$((3+4))\r");
    await a1.waitForText('shape-7');
    await waitFor(() => a1.rawOutput(blink).includes('\x1b[3 q'), { what: 'a blinking underline cursor on the outer terminal' });
    const leaving = a1.mark();
    await detach(a1);
    await waitFor(() => a1.rawOutput(leaving).includes('\x1b[0 q'), { what: 'the outer terminal\'s own cursor style restored' });
  });
});
