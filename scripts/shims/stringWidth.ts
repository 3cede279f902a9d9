// Bundle-only stand-in for 'string-width' in a1's own modules (scripts/bundle.mjs wires it).
// string-width compiles large Unicode-property regexes as it loads (about 25 ms), a cost every
// client start would pay before its first paint although nothing measures text until the strip
// is drawn. esbuild turns this require into a synchronous init on the first call instead.
type StringWidth = (text: string, options?: { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean }) => number;

let real: StringWidth | null = null;

export default function stringWidth(text: string, options?: Parameters<StringWidth>[1]): number {
  real ??= (require('string-width') as { default: StringWidth }).default;
  return real(text, options);
}
