// Ids the core hands out: unique within a server (its serverId, random per start in the shell) and
// made only of [A-Za-z0-9_], since they name sockets (paths.ts). The counter is written in base 36
// so a long-lived server's ids stay short enough for a socket name.

export function tabId(serverId: string, n: number): string {
  return `tab${serverId}_${n.toString(36)}`;
}

export function incarnationId(serverId: string, n: number): string {
  return `${serverId}_${n.toString(36)}`;
}
