// What `ssh -G TARGET` prints: the effective client configuration, one `key value` line per
// setting, keys in lower case (readconf.c dump_client_config). Read without any network (unless
// the user's config canonicalizes names or runs `Match exec`), it tells which settings the
// user's own config leaves at ssh's default, so a1 supplies its defaults only there.

/** The effective configuration: each key with the values of its lines, in order (IdentityFile,
 * SendEnv and a few others repeat). */
export type SshEffectiveConfig = ReadonlyMap<string, readonly string[]>;

export function parseSshConfigDump(text: string): SshEffectiveConfig {
  const config = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(line);
    if (!match) continue;
    const key = match[1].toLowerCase();
    const values = config.get(key) ?? [];
    values.push(match[2] ?? '');
    config.set(key, values);
  }
  return config;
}

/** The first value of `key`, or undefined when the dump lacks it. */
export function configValue(config: SshEffectiveConfig, key: string): string | undefined {
  return config.get(key.toLowerCase())?.[0];
}

/** Where ssh will connect: for the sentences that name the machine (`gpu.lan:2222`), taken from
 * the configuration rather than quoted from ssh's errors. */
export function sshEndpoint(config: SshEffectiveConfig): { hostname?: string; port?: number; user?: string } {
  const port = Number(configValue(config, 'port'));
  return {
    hostname: configValue(config, 'hostname'),
    port: Number.isInteger(port) && port > 0 ? port : undefined,
    user: configValue(config, 'user'),
  };
}
