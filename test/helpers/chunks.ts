// Streams cut into chunks where a property test says, for decoders that must accept any chunk
// boundaries (src/protocol/frame.ts, src/remote/mux.ts, src/remote/banner.ts).

/** `stream` cut at the given points: any naturals, taken modulo its length plus one, so every
 * cut (before the first byte, after the last) can happen. The chunks join back to `stream`. */
export function chunkedAt(stream: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of [...points, stream.length]) {
    chunks.push(stream.subarray(from, p));
    from = p;
  }
  return chunks;
}
