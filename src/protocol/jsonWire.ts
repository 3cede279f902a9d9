// The wires that carry JSON text rather than msgpack frames (the page's WebSocket, the status
// pipe, the holder init, the web control socket): each text is parsed and checked against its
// declared schema (src/protocol/schema.ts) before anyone reads it, as a frame is. Never throws,
// and an error never quotes the text.
import { ProtocolError } from './errors.js';
import { validateFields, validateMessage, type FieldsOf, type Message, type Schema } from './schema.js';

/** The text's JSON value, or why it has none. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return new ProtocolError('malformed', 'The text is not JSON.');
  }
}

/** The text as a message of `schema` (with its `t`), or why it is not one. */
export function readJsonMessage(schema: Schema, text: string): Message | ProtocolError {
  const value = parseJson(text);
  return value instanceof ProtocolError ? value : validateMessage(schema, value);
}

/** The text as the fields of `type` (a wire with no `t`; see validateFields), or why it is not. */
export function readJsonFields<S extends Schema, T extends keyof S & string>(schema: S, type: T, text: string): FieldsOf<S[T]> | ProtocolError {
  const value = parseJson(text);
  return value instanceof ProtocolError ? value : validateFields(schema, type, value);
}
