// Bundle-only stand-in for 'msgpackr' in a1's own modules (scripts/bundle.mjs wires it).
// msgpackr's Node entry loads its native string extractor (msgpackr-extract, through
// node-gyp-build and a dlopen) as it loads: start-up work every a1 process paid before its first
// byte, though only the client decodes frames big enough for it to matter. This is the package's
// plain entry; setExtractor lets the client add the extractor after its first paint
// (src/protocol/nativeStrings.ts).
import * as unpack from '../../node_modules/msgpackr/unpack.js';

export * from '../../node_modules/msgpackr/index.js';
/** How msgpackr's Node entry installs the extractor; not in its types. */
export const setExtractor = (unpack as unknown as { setExtractor: (extract: unknown) => void }).setExtractor;
