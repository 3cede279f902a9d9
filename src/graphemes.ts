// One grapheme segmenter, made on first use: the first Intl.Segmenter loads ICU's break data
// (about 18 ms), which a1's start-up should not pay before the tab is on screen.
let segmenter: Intl.Segmenter | null = null;

export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}
