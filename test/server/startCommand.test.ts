// What `a1 new -- CMD…` runs (issue 18): one argument with shell syntax through the user's shell,
// and a program that cannot start found out before any tab exists.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findProgram, shellWrapped } from '../../src/server/startCommand.js';

describe('shellWrapped', () => {
  it.each([
    [['echo hi && sleep 100'], '/bin/zsh', ['/bin/zsh', '-c', 'echo hi && sleep 100']],
    [['make test'], undefined, ['/bin/sh', '-c', 'make test']],
    [['ls|wc'], '', ['/bin/sh', '-c', 'ls|wc']],
    [['~/bin/tool'], '/bin/bash', ['/bin/bash', '-c', '~/bin/tool']],
    [['vim'], '/bin/bash', ['vim']],
    [['/usr/bin/top'], '/bin/bash', ['/usr/bin/top']],
    [['echo', 'hi && no'], '/bin/bash', ['echo', 'hi && no']],
  ])('%j with SHELL=%j runs %j', (command, shell, argv) => {
    expect(shellWrapped(command, shell)).toEqual(argv);
  });
});

describe('findProgram', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-start-'));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'plain'), 'text\n', { mode: 0o644 });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds a path as given, relative to the directory, and a name on PATH', () => {
    expect(findProgram('/bin/sh', { PATH: '', cwd: dir })).toMatchObject({ ok: true });
    expect(findProgram('bin/tool', { PATH: '', cwd: dir })).toEqual({ ok: true, file: path.join(bin, 'tool') });
    expect(findProgram('tool', { PATH: `/nonexistent:${bin}`, cwd: '/' })).toEqual({ ok: true, file: path.join(bin, 'tool') });
    expect(findProgram('sh', { PATH: undefined, cwd: '/' })).toMatchObject({ ok: true });
  });

  it('refuses a missing program with ENOENT, naming it', () => {
    expect(findProgram('/no/such/program', { PATH: bin, cwd: dir })).toEqual({ ok: false, code: 'ENOENT', message: 'Cannot start "/no/such/program": no such file (ENOENT).' });
    expect(findProgram('no-such-program-a1', { PATH: bin, cwd: dir })).toEqual({ ok: false, code: 'ENOENT', message: 'Cannot start "no-such-program-a1": not found on PATH (ENOENT).' });
  });

  it('refuses a file that is not executable, and a directory, with EACCES', () => {
    expect(findProgram(path.join(bin, 'plain'), { PATH: '', cwd: dir })).toMatchObject({ ok: false, code: 'EACCES' });
    expect(findProgram('./bin', { PATH: '', cwd: dir })).toMatchObject({ ok: false, code: 'EACCES' });
    expect(findProgram('plain', { PATH: bin, cwd: dir })).toMatchObject({ ok: false, code: 'EACCES', message: 'Cannot start "plain": found on PATH but not executable (EACCES).' });
  });
});
