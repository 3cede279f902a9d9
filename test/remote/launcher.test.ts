import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { LAUNCHER_MARKERS, LAUNCHER_PREFIX, launcherCommand } from '../../src/remote/launcher.js';
import { shellQuote, shellWord } from '../../src/remote/shellWords.js';

/** The words a POSIX shell reads from `line`, for what shellQuote writes: single quotes, a
 * backslash outside quotes, blanks between words. No expansion happens in any of it. */
function shellWordsOf(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated quote');
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      word = (word ?? '') + line[++i];
    } else if (c === ' ') {
      if (word !== null) words.push(word);
      word = null;
    } else {
      if (/["$`*?[\]{}();&|<>#~]/.test(c)) throw new Error(`unquoted special character ${c}`);
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

const TRICKY = ["it's", "''", "'", 'a b', '$(rm -rf ~)', '`id`', '"quoted"', 'back\\slash', 'new\nline', '*', '', 'ünï ✓', "a'\"'\"b", '; exit 1 #'];

describe('shell words', () => {
  it('single-quotes any string into one word that reads back as itself', () => {
    for (const s of TRICKY) expect(shellWordsOf(shellQuote(s)), JSON.stringify(s)).toEqual([s]);
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(shellWordsOf(shellQuote(s))).toEqual([s]);
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('shows a plain word bare and anything else quoted', () => {
    const shown = [
      ['me@gpu.lan', 'me@gpu.lan'],
      ['IdentityFile=~/.ssh/id_gpu', 'IdentityFile=~/.ssh/id_gpu'],
      ['ProxyCommand=ssh -W %h:%p jump', "'ProxyCommand=ssh -W %h:%p jump'"],
      ['[gpu]:2222', "'[gpu]:2222'"],
      ['', "''"],
    ];
    expect(shown.map(([word]) => [word, shellWord(word)])).toEqual(shown);
  });
});

describe('the remote launcher', () => {
  const words = shellWordsOf(launcherCommand('work', 'env A1_HOME=/x node /x/bin/a1'));
  const script = words[3];

  it('is one line that execs sh with the script, its name, the profile and the --a1-path words', () => {
    expect(words.slice(0, 3)).toEqual(['exec', 'sh', '-c']);
    expect(words.slice(4)).toEqual(['a1-remote', 'work', 'env A1_HOME=/x node /x/bin/a1']);
    expect(shellWordsOf(launcherCommand('default')).slice(4)).toEqual(['a1-remote', 'default', '']);
  });

  it('passes any --a1-path through as one argument, whatever it holds', () => {
    for (const a1Path of TRICKY) expect(shellWordsOf(launcherCommand('p', a1Path))[6], JSON.stringify(a1Path)).toBe(a1Path);
  });

  it('is a script that login shells other than sh pass through unchanged: one line, no backslash, no !', () => {
    expect(launcherCommand('p')).not.toMatch(/\n/);
    expect(script).not.toMatch(/[\n\\!]/);
  });

  it('looks where the memo says, in order: --a1-path, PATH, the login PATH, the usual places, the newest nvm node', () => {
    const order = ['"$given"', 'command -v a1', '-lc \'printf %s "$PATH"\'', '"$HOME/.local/bin"', '"$HOME/.npm-global/bin"', '"$HOME/.volta/bin"', '/usr/local/bin', '/opt/homebrew/bin', '"$HOME"/.nvm/versions/node/v*/bin'];
    const at = order.map((needle) => script.indexOf(needle));
    expect(at.every((i) => i >= 0), JSON.stringify(at)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('says what it does in the markers sshFailure reads, and execs a1 __remote with the profile', () => {
    expect(script).toContain(`echo "${LAUNCHER_PREFIX}$*" >&2`);
    expect(script).toContain(`say ${LAUNCHER_MARKERS.noA1}; exit 127`);
    expect(script).toContain(`say "${LAUNCHER_MARKERS.noNode}$found"; exit 127`);
    expect(script).toContain(`say "${LAUNCHER_MARKERS.exec}$found"; exec "$found" __remote --profile "$p"`);
    expect(script).toContain('eval "set -- $given"');
    expect(script).toContain('PATH=${found%/*}:$PATH; export PATH; command -v node');
  });
});
