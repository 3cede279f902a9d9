// The environment a tab's child starts with (SPEC §15 "The child"): the requesting client's,
// less a1's own markers of another tab and the outer terminal's and outer multiplexer's identity.
// A child that saw `TMUX` would believe it runs in tmux (Claude Code then prints tmux hints and
// wraps its output in tmux passthrough); a terminal's own variables describe a terminal the
// child is not talking to. The holder adds TERM, a1's shims on PATH and the tab's own A1_* afterwards
// (src/holder/childEnvironment.ts).

/** Exact names: a1's per-tab markers, and terminals' and multiplexers' identities. */
const DROPPED_NAMES: ReadonlySet<string> = new Set([
  'A1_TAB_ID',
  'A1_BRIDGE',
  'A1_BRIDGE_TOKEN',
  'TMUX',
  'TMUX_PANE',
  'TMUX_PLUGIN_MANAGER_PATH',
  'STY',
  'WINDOW',
  'WINDOWID',
  'TERM_SESSION_ID',
  'WEZTERM_PANE',
  'WEZTERM_UNIX_SOCKET',
  'WEZTERM_EXECUTABLE',
  'WEZTERM_EXECUTABLE_DIR',
  'WEZTERM_CONFIG_DIR',
  'WEZTERM_CONFIG_FILE',
  'KITTY_WINDOW_ID',
  'KITTY_PID',
  'KITTY_PUBLIC_KEY',
  'KITTY_LISTEN_ON',
  'KITTY_INSTALLATION_DIR',
  'ITERM_SESSION_ID',
  'ITERM_PROFILE',
  'LC_TERMINAL',
  'LC_TERMINAL_VERSION',
  'TERMINAL_EMULATOR',
  'VTE_VERSION',
  'WT_SESSION',
  'WT_PROFILE_ID',
  'KONSOLE_VERSION',
  'KONSOLE_DBUS_SERVICE',
  'KONSOLE_DBUS_SESSION',
  'KONSOLE_DBUS_WINDOW',
  'SHELL_SESSION_ID',
  'ALACRITTY_WINDOW_ID',
  'ALACRITTY_SOCKET',
  'ALACRITTY_LOG',
  'GHOSTTY_RESOURCES_DIR',
  'GHOSTTY_BIN_DIR',
  'GHOSTTY_SHELL_FEATURES',
  'GHOSTTY_SHELL_INTEGRATION_NO_SUDO',
]);

/** Prefixes of whole families (zellij, `TERM_PROGRAM` and `TERM_PROGRAM_VERSION`, a holder's own). */
const DROPPED_PREFIXES: readonly string[] = ['A1_HOLDER_', 'ZELLIJ', 'TERM_PROGRAM'];

export function isOuterIdentity(name: string): boolean {
  return DROPPED_NAMES.has(name) || DROPPED_PREFIXES.some((p) => name.startsWith(p));
}

/** The child gets the requesting client's environment minus a1's markers and the outer terminal's identity. */
export function sanitizeChildEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || isOuterIdentity(k)) continue;
    out[k] = v;
  }
  return out;
}
