// Two connected in-memory byte streams, as the two ends of a link channel are: what one writes the
// other reads; ending or destroying one ends the other's reading and closes it, as a socket's
// peer sees (Node 20 has no stream.duplexPair).
import { Duplex } from 'node:stream';

export function duplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const make = (me: number): Duplex =>
    new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        ends[1 - me]!.push(chunk);
        done();
      },
      final(done) {
        ends[1 - me]!.push(null);
        done();
      },
      destroy(error, done) {
        const peer = ends[1 - me]!;
        if (!peer.destroyed) peer.destroy();
        done(error);
      },
    });
  ends.push(make(0), make(1));
  return [ends[0]!, ends[1]!];
}
