import { describe, expect, it } from 'vitest';
import { SOCKET_NAME_MAX } from '../../src/paths.js';
import { launcherCommand } from '../../src/remote/launcher.js';
import { A1_SETS_THIS, a1PathProblem, checkSshOption, controlPath, sshArgs, sshConfigDumpArgs, sshControlArgs, targetProblem, type HostDefinition } from '../../src/remote/sshArgs.js';
import { configValue, parseSshConfigDump, sshEndpoint } from '../../src/remote/sshConfig.js';

/** The part of `ssh -G` that matters here, as OpenSSH 9.2 prints it for an unconfigured host. */
const DUMP_UNSET = ['host gpu.lan', 'user me', 'hostname gpu.lan', 'port 22', 'batchmode no', 'identityfile ~/.ssh/id_rsa', 'identityfile ~/.ssh/id_ed25519', 'serveralivecountmax 3', 'serveraliveinterval 0', 'sendenv LANG', 'sendenv LC_*', 'connecttimeout none', ''].join('\n');
const DUMP_SET = DUMP_UNSET.replace('connecttimeout none', 'connecttimeout 7').replace('serveraliveinterval 0', 'serveraliveinterval 15');

const gpu: HostDefinition = { name: 'gpu', target: 'me@gpu.lan', sshOptions: ['Port=2222', 'IdentityFile=~/.ssh/id_gpu'] };
const SOCKETS = '/tmp/a1-0/default';

describe('ssh -G', () => {
  it('reads each key in lower case with its values in order', () => {
    const config = parseSshConfigDump(DUMP_UNSET);
    expect(config.get('identityfile')).toEqual(['~/.ssh/id_rsa', '~/.ssh/id_ed25519']);
    expect(configValue(config, 'ConnectTimeout')).toBe('none');
    expect(configValue(config, 'nosuchkey')).toBeUndefined();
    expect(sshEndpoint(config)).toEqual({ hostname: 'gpu.lan', port: 22, user: 'me' });
    expect(sshEndpoint(parseSshConfigDump('port x\n'))).toEqual({ hostname: undefined, port: undefined, user: undefined });
  });
});

describe('the ssh command line', () => {
  it("puts a1's options first, the user's next, defaults where ssh -G shows none, then -- TARGET and the launcher", () => {
    const path = controlPath(gpu, SOCKETS);
    expect(sshArgs(gpu, SOCKETS, parseSshConfigDump(DUMP_UNSET))).toEqual([
      '-T', '-e', 'none',
      '-o', 'BatchMode=yes', '-o', 'RemoteCommand=none', '-o', 'ClearAllForwardings=yes', '-o', 'PermitLocalCommand=no',
      '-o', 'ControlMaster=auto', '-o', `ControlPath=${path}`, '-o', 'ControlPersist=600',
      '-o', 'Port=2222', '-o', 'IdentityFile=~/.ssh/id_gpu',
      '-o', 'ConnectTimeout=10', '-o', 'ServerAliveInterval=5', '-o', 'ServerAliveCountMax=3',
      '--', 'me@gpu.lan', launcherCommand('default'),
    ]);
  });

  it("leaves the user's own timeout and keepalive alone, and adds no default without ssh -G", () => {
    const withSet = sshArgs(gpu, SOCKETS, parseSshConfigDump(DUMP_SET));
    const without = sshArgs(gpu, SOCKETS);
    for (const args of [withSet, without]) expect(args.filter((a) => /^(ConnectTimeout|ServerAlive)/.test(a))).toEqual([]);
    expect(sshArgs(gpu, SOCKETS, parseSshConfigDump(''))).toContain('ConnectTimeout=10');
  });

  it("passes the host's profile and --a1-path to the launcher", () => {
    const args = sshArgs({ ...gpu, profile: 'work', a1Path: "node '/opt/a 1/a1'" }, SOCKETS);
    expect(args.at(-1)).toBe(launcherCommand('work', "node '/opt/a 1/a1'"));
  });

  it('drops the options a1 sets or that would cut the link, whatever their case', () => {
    const host = { ...gpu, sshOptions: ['controlpath=/tmp/x', 'BatchMode=no', 'RequestTTY=yes', 'StdinNull=yes', 'Port 22', 'User=me'] };
    const args = sshArgs(host, SOCKETS);
    expect(args.filter((a, i) => args[i - 1] === '-o' && !/^(BatchMode=yes|RemoteCommand|ClearAll|PermitLocal|ControlMaster|ControlPath=\/tmp\/a1|ControlPersist)/.test(a))).toEqual(['User=me']);
  });

  it('refuses to build a command for a target that is not one', () => {
    expect(() => sshArgs({ ...gpu, target: '-oProxyCommand=x' }, SOCKETS)).toThrow(RangeError);
  });

  it('names the master by the connection: a changed target or option is a new master, a changed a1 path is not', () => {
    const path = controlPath(gpu, SOCKETS);
    expect(path).toMatch(/^\/tmp\/a1-0\/default\/c-[0-9a-f]{16}$/);
    expect(controlPath({ ...gpu, a1Path: '/x/a1', profile: 'p' }, SOCKETS)).toBe(path);
    for (const changed of [{ ...gpu, name: 'gpu2' }, { ...gpu, target: 'me@gpu2.lan' }, { ...gpu, sshOptions: ['Port=2223'] }]) expect(controlPath(changed, SOCKETS)).not.toBe(path);
    // ssh binds the path plus "." and 16 random characters first (mux.c muxserver_listen).
    expect(Buffer.byteLength(path.split('/').at(-1)!) + 17).toBeLessThanOrEqual(SOCKET_NAME_MAX);
  });

  it('writes the control path as ssh reads it: % doubled, quoted when it has spaces or quotes', () => {
    const value = (dir: string): string | undefined => sshArgs(gpu, dir).find((a) => a.startsWith('ControlPath='));
    expect(value('/tmp/100%')).toBe(`ControlPath=${controlPath(gpu, '/tmp/100%').replace('%', '%%')}`);
    expect(value('/Users/J Smith/run')).toBe(`ControlPath="${controlPath(gpu, '/Users/J Smith/run')}"`);
    expect(value('/a"b\\c')).toBe(`ControlPath="/a\\"b\\\\c/${controlPath(gpu, '/').split('/').at(-1)}"`);
  });

  it('reaches the same master for ssh -O and reads the config with the same options', () => {
    const connection = sshArgs(gpu, SOCKETS).slice(0, -3);
    expect(sshControlArgs(gpu, SOCKETS, 'check')).toEqual([...connection, '-O', 'check', '--', 'me@gpu.lan']);
    expect(sshControlArgs(gpu, SOCKETS, 'exit')).toEqual([...connection, '-O', 'exit', '--', 'me@gpu.lan']);
    expect(sshConfigDumpArgs(gpu)).toEqual(['-G', '-o', 'Port=2222', '-o', 'IdentityFile=~/.ssh/id_gpu', '--', 'me@gpu.lan']);
  });
});

describe('checking a host definition', () => {
  it('takes Key=Value options, values with spaces too', () => {
    expect(checkSshOption('ProxyCommand=ssh -W %h:%p jump')).toEqual({ ok: true, key: 'ProxyCommand', value: 'ssh -W %h:%p jump' });
    expect(checkSshOption('UserKnownHostsFile=/tmp/k=v')).toEqual({ ok: true, key: 'UserKnownHostsFile', value: '/tmp/k=v' });
    for (const bad of ['Port 22', 'Port=', '=22', '1Port=22', 'Port=2\n2', '-oPort=22', '']) expect(checkSshOption(bad), bad).toMatchObject({ ok: false, reason: expect.stringContaining('Key=Value') });
  });

  it('refuses what a1 sets itself with the sentence a1 config check shows', () => {
    for (const key of ['BatchMode', 'RemoteCommand', 'ClearAllForwardings', 'PermitLocalCommand', 'ControlMaster', 'ControlPath', 'ControlPersist', 'RequestTTY', 'EscapeChar', 'controlmaster']) {
      expect(checkSshOption(`${key}=x`), key).toEqual({ ok: false, reason: A1_SETS_THIS });
    }
    expect(A1_SETS_THIS).toBe('a1 sets this; yours is ignored');
    for (const key of ['StdinNull', 'ForkAfterAuthentication', 'SessionType']) expect(checkSshOption(`${key}=yes`)).toMatchObject({ ok: false, reason: expect.stringContaining('stdin and stdout') });
  });

  it('takes any destination ssh takes, and nothing that could be read as an option or split', () => {
    for (const ok of ['gpu', 'me@gpu.lan', 'ssh://me@gpu.lan:2222', 'me@[::1]', 'alias-from-config']) expect(targetProblem(ok), ok).toBeNull();
    expect(targetProblem('')).toMatch(/empty/);
    expect(targetProblem('-oProxyCommand=touch /tmp/x')).toMatch(/'-'/);
    for (const bad of ['me@gpu lan', 'gpu\t', 'gpu\n', 'g\x1bpu', 'gpu\u00a0', 'gpu\u0085']) expect(targetProblem(bad), JSON.stringify(bad)).toMatch(/spaces or control/);
  });

  it('takes an --a1-path of shell words on one line', () => {
    expect(a1PathProblem('env A1_HOME=/x node /x/bin/a1')).toBeNull();
    expect(a1PathProblem('  ')).toMatch(/empty/);
    expect(a1PathProblem('a1\nrm -rf ~')).toMatch(/control/);
  });
});
