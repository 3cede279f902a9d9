// The tab bridge's token (SPEC §7, §15): the holder mints it into the child's environment as
// A1_BRIDGE_TOKEN and `a1 status` splits it again, so its shape belongs to the wire, not to either side.
import crypto from 'node:crypto';

/** The key one child incarnation proves: HMAC(holder's bridge key, child incarnation). */
export function childBridgeKey(bridgeKey: Buffer, childInc: string): Buffer {
  return crypto.createHmac('sha256', bridgeKey).update('a1 bridge child\0').update(childInc).digest();
}

/** `A1_BRIDGE_TOKEN`: the child incarnation and its key, which `a1 status` splits again. */
export function bridgeToken(bridgeKey: Buffer, childInc: string): string {
  return `${childInc}.${childBridgeKey(bridgeKey, childInc).toString('base64url')}`;
}

export function parseBridgeToken(token: string): { childInc: string; key: Buffer } | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const key = Buffer.from(token.slice(dot + 1), 'base64url');
  return key.length === 32 ? { childInc: token.slice(0, dot), key } : null;
}

