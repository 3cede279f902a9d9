// The one error type of the wire protocol. Its messages are fixed sentences: they never quote
// frame content, which may carry terminal text or credentials.

export const PROTOCOL_ERROR_CODES = [
  'oversize',
  'malformed',
  'not-object',
  'unknown-type',
  'bad-field',
  'handshake',
  'generation',
  'auth',
  'timeout',
] as const;

export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';

  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isProtocolErrorCode(value: unknown): value is ProtocolErrorCode {
  return typeof value === 'string' && (PROTOCOL_ERROR_CODES as readonly string[]).includes(value);
}
