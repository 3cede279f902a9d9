// What `a1 new -- CMD ARGS…` runs (issue 18). A single argument holding spaces or shell syntax
// runs through the user's shell (`$SHELL -c`, else /bin/sh), as tmux does; several arguments run
// as argv. A program that cannot start is refused before any tab exists: node-pty's execvp fails
// in the forked child, where all a1 would see is an exit, so the program is looked up first as a
// shell's `command -v` does (a path as given, relative to the tab's directory; a bare name on PATH).
import fs from 'node:fs';
import path from 'node:path';

/** Characters that make one argument a shell command rather than a program's name. */
const SHELL_SYNTAX = /[\s;&|<>()$`\\"'*?[\]{}~#!]/;
/** execvp's search path when PATH is unset. */
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The argv a tab runs for `command`: one argument with shell syntax becomes `shell -c ARG`. */
export function shellWrapped(command: readonly string[], shell: string | undefined): string[] {
  if (command.length !== 1 || !SHELL_SYNTAX.test(command[0])) return [...command];
  return [shell || '/bin/sh', '-c', command[0]];
}

/** What is at a path, as exec sees it: a directory is not executable (EACCES, like execvp). */
export type Probe = (file: string) => 'executable' | 'not-executable' | 'missing';

export const probeFile: Probe = (file) => {
  try {
    if (!fs.statSync(file).isFile()) return 'not-executable';
    fs.accessSync(file, fs.constants.X_OK);
    return 'executable';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EACCES' ? 'not-executable' : 'missing';
  }
};

export type Startable = { ok: true; file: string } | { ok: false; code: 'ENOENT' | 'EACCES'; message: string };

/** Whether `program` can be executed from `cwd` with this PATH, and the file that would run. */
export function findProgram(program: string, env: { PATH?: string; cwd: string }, probe: Probe = probeFile): Startable {
  const refuse = (code: 'ENOENT' | 'EACCES', why: string): Startable => ({ ok: false, code, message: `Cannot start ${JSON.stringify(program)}: ${why} (${code}).` });
  if (program === '') return refuse('ENOENT', 'no program named');
  if (program.includes('/')) {
    const file = path.resolve(env.cwd, program);
    const found = probe(file);
    if (found === 'executable') return { ok: true, file };
    return found === 'missing' ? refuse('ENOENT', 'no such file') : refuse('EACCES', 'not an executable file');
  }
  let denied = false;
  for (const dir of (env.PATH ?? DEFAULT_PATH).split(':')) {
    const file = path.resolve(env.cwd, dir === '' ? '.' : dir, program);
    const found = probe(file);
    if (found === 'executable') return { ok: true, file };
    if (found === 'not-executable') denied = true;
  }
  return denied ? refuse('EACCES', 'found on PATH but not executable') : refuse('ENOENT', 'not found on PATH');
}
