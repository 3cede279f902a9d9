// The one way a1 serves on a socket path (src/protocol/unixListener.ts): owner-only, bound again
// after the path vanished, and never removing a path that another listener bound since.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UnixListener } from '../../src/protocol/unixListener.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-ul-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A listener that counts its connections and the restore failures it reported. */
function listener(file: string) {
  const seen = { connections: 0, restoreFailures: 0 };
  const l = new UnixListener(
    file,
    (socket) => {
      seen.connections++;
      socket.destroy();
    },
    { error: () => undefined, restoreFailed: () => seen.restoreFailures++ },
  );
  cleanups.push(() => l.close());
  return { l, seen };
}

function connects(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(file);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

describe('UnixListener', () => {
  it('binds owner-only over a stale file, and knows when its path vanished', async () => {
    const file = path.join(tempDir(), 's.sock');
    fs.writeFileSync(file, 'left by a dead predecessor');
    const { l, seen } = listener(file);
    await l.listen();
    expect(fs.lstatSync(file).isSocket()).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(l.inPlace()).toBe(true);
    expect(await connects(file)).toBe(true);
    fs.rmSync(file);
    expect(l.inPlace()).toBe(false);
    expect(await connects(file)).toBe(false);
    expect(seen.connections).toBe(1);
  });

  it('restores a vanished path, its directory too, and reports only the first failure of an outage', async () => {
    const dir = path.join(tempDir(), 'run');
    fs.mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, 's.sock');
    const { l, seen } = listener(file);
    await l.listen();
    fs.rmSync(dir, { recursive: true });
    expect(await l.restore()).toBe(true);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(await connects(file)).toBe(true);
    // Something in the way: no bind, one report for any number of attempts.
    fs.rmSync(file);
    fs.mkdirSync(file);
    expect(await l.restore()).toBe(false);
    expect(await l.restore()).toBe(false);
    expect(seen.restoreFailures).toBe(1);
    fs.rmdirSync(file);
    expect(await l.restore()).toBe(true);
    expect(l.inPlace()).toBe(true);
    expect(await connects(file)).toBe(true);
    // A new outage is reported again.
    fs.rmSync(file);
    fs.mkdirSync(file);
    expect(await l.restore()).toBe(false);
    expect(seen.restoreFailures).toBe(2);
  });

  it('closing removes its own path, and leaves a path another listener bound since', async () => {
    const dir = tempDir();
    const own = path.join(dir, 'own.sock');
    const a = listener(own);
    await a.l.listen();
    a.l.close();
    expect(fs.existsSync(own)).toBe(false);

    const shared = path.join(dir, 'shared.sock');
    const first = listener(shared);
    await first.l.listen();
    fs.rmSync(shared);
    const second = listener(shared);
    await second.l.listen();
    first.l.close();
    expect(second.l.inPlace()).toBe(true);
    expect(await connects(shared)).toBe(true);
    expect(second.seen.connections).toBe(1);
  });
});
