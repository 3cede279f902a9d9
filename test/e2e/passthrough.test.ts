// What the child asks of the terminal reaches the outer one: OSC 52 clipboard writes (as the
// config allows; reads are never answered) and the cursor shape (DECSCUSR).
import { describe, it, expect, afterEach } from 'vitest';
import { detach, e2e, PROMPT_SEEN, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

// base64 of 'clip-42': the shell computes the text, so the typed command line never contains it.
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
