// msgpackr's native string extractor (msgpackr-extract) decodes frames of many strings, such as
// full surfaces, faster; the bundle leaves it out of msgpackr's load (scripts/shims/msgpackr.ts),
// a start-up cost, and the client adds it here once its first paint is out.
import { createRequire } from 'node:module';
import * as msgpackr from 'msgpackr';

type Extractor = (start: number, end: number, source: Uint8Array) => unknown;

export function enableNativeStrings(): void {
  // Unbundled (tests), 'msgpackr' is the package's Node entry, which loaded it already.
  const setExtractor = (msgpackr as { setExtractor?: (extract: Extractor) => void }).setExtractor;
  if (!setExtractor) return;
  try {
    setExtractor((createRequire(import.meta.url)('msgpackr-extract') as { extractStrings: Extractor }).extractStrings);
  } catch {
    // Optional, as in msgpackr itself: the JavaScript decoder stands in.
  }
}
