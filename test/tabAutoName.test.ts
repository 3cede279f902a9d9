// Automatic tab names (issue 18, the seed's tabsAutoName): the slug of a title or a command, the
// `-N` that keeps names unique, and when a title renames a tab.
import { describe, expect, it } from 'vitest';
import { AUTO_NAME_MAX, AUTO_RENAME_INTERVAL_MS, commandName, nextAutoName, slug, titleName, uniqueAutoName, type AutoNameFacts } from '../src/tabAutoName.js';

describe('titleName', () => {
  it.each([
    ['Fix the bug', 'fix-the-bug'],
    ['✳ Fix the bug', 'fix-the-bug'],
    ['⠂ Fix the bug', 'fix-the-bug'],
    ['·✢ Refactor auth', 'refactor-auth'],
    ['🚀 Deploy to prod!', 'deploy-to-prod'],
    ['vim: main.ts (~/src/a1)', 'vim-main-ts-src'],
    ['  npm   test  ', 'npm-test'],
    ['Café Déjà Vu', 'cafe-deja-vu'],
    ['README.md', 'readme-md'],
    ['~/src/x', 'x'],
    ['/srv/app/', 'app'],
    ['./build', 'build'],
    ['me@box: ~/src/a1', 'a1'],
    ['me@box:/var/log', 'log'],
    ['Implement the new authentication flow for users', 'implement-the'],
    ['supercalifragilisticexpialidocious', 'supercalifragili'],
    ['テスト', 'テスト'],
    ['a\u0007b\u001b', 'ab'],
  ])('%j → %j', (title, name) => {
    expect(titleName(title)).toBe(name);
  });

  it.each([[''], ['   '], ['✳'], ['⠋'], ['⠂ '], ['🚀✨'], ['---'], ['~'], ['/'], ['me@box: ~']])('%j names nothing', (title) => {
    expect(titleName(title)).toBeNull();
  });

  it('never gives more than 16 characters, nor a trailing hyphen', () => {
    for (const title of ['a-b-c-d-e-f-g-h-i-j-k', 'abcdefghijklmno pqr', 'x'.repeat(40), 'fifteen-chars-x yz']) {
      const name = titleName(title)!;
      expect(Array.from(name).length).toBeLessThanOrEqual(AUTO_NAME_MAX);
      expect(name).not.toMatch(/-$/);
    }
  });
});

describe('commandName', () => {
  it.each([
    [['/bin/bash', '--norc'], 'bash'],
    [['-zsh'], 'zsh'],
    [['claude'], 'claude'],
    [['/usr/local/bin/codex', '--yolo'], 'codex'],
    [['vim', 'x.ts'], 'vim'],
    [['/bin/sh', '-c', 'echo hi && sleep 100'], 'echo'],
    [['/usr/bin/zsh', '-c', '  /usr/bin/make test'], 'make'],
    [['node', 'script.js'], 'node'],
    [['My_Tool.AppImage'], 'my-tool-appimage'],
  ])('%j → %j', (argv, name) => {
    expect(commandName(argv)).toBe(name);
  });

  it('names nothing from an empty command', () => {
    expect(commandName([])).toBeNull();
    expect(slug('')).toBeNull();
  });
});

describe('uniqueAutoName', () => {
  it('adds the smallest free -N, within 16 characters', () => {
    expect(uniqueAutoName('bash', [])).toBe('bash');
    expect(uniqueAutoName('bash', ['bash'])).toBe('bash-2');
    expect(uniqueAutoName('bash', ['bash', 'bash-2', 'agent'])).toBe('bash-3');
    expect(uniqueAutoName('supercalifragili', ['supercalifragili'])).toBe('supercalifragi-2');
    expect(uniqueAutoName('implement-the-ne', ['implement-the-ne'])).toBe('implement-the-2');
  });
});

describe('nextAutoName', () => {
  const facts = (over: Partial<AutoNameFacts>): AutoNameFacts => ({ source: 'auto', current: 'bash', agentName: null, title: '', taken: [], lastAt: null, now: 100_000, ...over });

  it('never renames a tab the user named', () => {
    expect(nextAutoName(facts({ source: 'user', current: 'mine', title: 'Fix the bug', agentName: 'fixer' }))).toBeNull();
  });

  it('renames from the title, and from the agent-reported name before it', () => {
    expect(nextAutoName(facts({ title: '✳ Fix the bug' }))).toBe('fix-the-bug');
    expect(nextAutoName(facts({ source: 'default', current: 'agent 2', title: 'Fix' }))).toBe('fix');
    expect(nextAutoName(facts({ title: 'Fix the bug', agentName: 'Auth refactor' }))).toBe('auth-refactor');
  });

  it('keeps the name when the title names nothing or the name it already has', () => {
    expect(nextAutoName(facts({ title: '' }))).toBeNull();
    expect(nextAutoName(facts({ title: '⠂' }))).toBeNull();
    expect(nextAutoName(facts({ current: 'fix-the-bug', title: '✳ Fix the bug' }))).toBeNull();
    // Only the spinner turned: the same name.
    expect(nextAutoName(facts({ current: 'fix-the-bug', title: '⠐ Fix the bug' }))).toBeNull();
    // Made unique once: staying `fix-2` even when `fix` is free again.
    expect(nextAutoName(facts({ current: 'fix-2', title: 'Fix', taken: [] }))).toBeNull();
  });

  it('keeps names unique among the other tabs', () => {
    expect(nextAutoName(facts({ title: 'vim', taken: ['vim', 'bash-2'] }))).toBe('vim-2');
  });

  it('renames at most once per interval; the newest title wins afterwards', () => {
    expect(nextAutoName(facts({ title: 'ls', lastAt: 100_000 - 1 }))).toBeNull();
    expect(nextAutoName(facts({ title: 'ls', lastAt: 100_000 - AUTO_RENAME_INTERVAL_MS }))).toBe('ls');
  });
});
