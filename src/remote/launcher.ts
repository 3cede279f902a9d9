// The command ssh runs on the remote machine (issue 30, memo §1.3): it finds a1 there and execs
// `a1 __remote --profile P`. sshd runs it through the user's login shell (`$SHELL -c`, whatever
// shell that is), so it is one fixed line that hands a POSIX sh script to `sh -c`, with the
// profile and the user's --a1-path as the script's arguments, each one single-quoted word. The
// script is a single line with no backslash and no `!`, so csh and fish pass it through as sh
// gets it. Failures print one marker line on stderr (sshFailure.ts reads them) and exit 127.
import { shellQuote } from './shellWords.js';

/** The prefix of every line the launcher writes to stderr. */
export const LAUNCHER_PREFIX = 'a1-remote: ';
/** The markers after the prefix: no a1 found; an a1 found (its path follows) but no node beside
 * it; and the a1 about to be exec'd (its path or the --a1-path words follow). */
export const LAUNCHER_MARKERS = { noA1: 'no-a1', noNode: 'no-node ', exec: 'exec ' } as const;
/** Exit status of a launcher that found nothing to run, as a shell's "command not found". */
export const LAUNCHER_NOT_FOUND_EXIT = 127;

/** The script's $0, which names it in the remote's process list and in sh's own errors. */
const SCRIPT_NAME = 'a1-remote';

/** Directories an a1 may be in when the non-interactive PATH lacks it, after the login PATH:
 * pip-style user bins, npm's suggested prefix, Volta, and the usual system prefixes. */
const FALLBACK_DIRS = ['"$HOME/.local/bin"', '"$HOME/.npm-global/bin"', '"$HOME/.volta/bin"', '/usr/local/bin', '/opt/homebrew/bin'];

const M = LAUNCHER_MARKERS;

/** The script, statement by statement; $1 is the profile, $2 the --a1-path words (or empty). */
const SCRIPT = [
  'p=$1;',
  'given=$2;',
  `say() { echo "${LAUNCHER_PREFIX}$*" >&2; };`,
  // --a1-path is shell words (`env A1_HOME=/x node /x/bin/a1`): eval splits them as a shell would.
  `if [ -n "$given" ]; then eval "set -- $given"; say "${M.exec}$given"; exec "$@" __remote --profile "$p"; fi;`,
  'try() { if [ -z "$found" ] && [ -f "$1/a1" ] && [ -x "$1/a1" ]; then found=$1/a1; fi; };',
  'found=$(command -v a1 2>/dev/null);',
  'case $found in /*) ;; *) found= ;; esac;',
  // The login PATH: where an interactive login would find a1 (nvm, a profile's PATH edits).
  'if [ -z "$found" ]; then lp=$("${SHELL:-/bin/sh}" -lc \'printf %s "$PATH"\' </dev/null 2>/dev/null); set -f; IFS=:; for d in $lp; do try "$d"; done; unset IFS; set +f; fi;',
  `for d in ${FALLBACK_DIRS.join(' ')}; do try "$d"; done;`,
  // The newest nvm node that has an a1 (by version, not by name: v9 sorts after v20).
  'if [ -z "$found" ]; then best=-1; for d in "$HOME"/.nvm/versions/node/v*/bin; do v=${d%/bin}; v=${v##*/v}; a=${v%%.*}; r=${v#*.}; b=${r%%.*}; c=${r#*.}; c=${c%%-*};',
  '[ "$a" -ge 0 ] 2>/dev/null && [ "$b" -ge 0 ] 2>/dev/null && [ "$c" -ge 0 ] 2>/dev/null || continue;',
  'k=$((a * 1000000 + b * 1000 + c)); if [ "$k" -gt "$best" ] && [ -x "$d/a1" ]; then best=$k; found=$d/a1; fi; done; fi;',
  `if [ -z "$found" ]; then say ${M.noA1}; exit ${LAUNCHER_NOT_FOUND_EXIT}; fi;`,
  // bin/a1 starts with `#!/usr/bin/env node`; node (and agents installed beside it) live in a1's
  // directory under nvm, which also serves tabs created from the other machine.
  'PATH=${found%/*}:$PATH; export PATH;',
  `command -v node >/dev/null 2>&1 || { say "${M.noNode}$found"; exit ${LAUNCHER_NOT_FOUND_EXIT}; };`,
  `say "${M.exec}$found";`,
  'exec "$found" __remote --profile "$p"',
].join(' ');

/** The remote command for a host: one string, as ssh's last argument. `profile` must already be
 * valid (validateProfileName); `a1Path` is the host's --a1-path, shell words, or undefined. */
export function launcherCommand(profile: string, a1Path?: string): string {
  return ['exec', 'sh', '-c', shellQuote(SCRIPT), SCRIPT_NAME, shellQuote(profile), shellQuote(a1Path ?? '')].join(' ');
}
