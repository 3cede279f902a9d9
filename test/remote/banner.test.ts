import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { chunkedAt } from '../helpers/chunks.js';
import { BannerScanner, bannerBytes, LINK_GENERATION, MAX_BANNER_JUNK_BYTES, type BannerScan } from '../../src/remote/banner.js';

/** The scan of `chunks` as the link does it: once the banner is found, what follows goes to the
 * link, not to the scanner, so it is added to `rest` here. */
function scan(chunks: Buffer[]): BannerScan {
  const scanner = new BannerScanner();
  let result = scanner.push(Buffer.alloc(0));
  for (const chunk of chunks) {
    result = result.state === 'found' ? { ...result, rest: Buffer.concat([result.rest, chunk]) } : scanner.push(chunk);
  }
  return result;
}

const banner = bannerBytes();

describe('the banner', () => {
  it('is A1REMOTE and the link generation, 1, on a line', () => {
    expect(LINK_GENERATION).toBe(1);
    expect(banner.toString()).toBe('A1REMOTE 1\n');
  });

  it('is found at once on a quiet login, with nothing before it and nothing after', () => {
    expect(scan([banner])).toEqual({ state: 'found', linkGen: 1, junkSeen: false, rest: Buffer.alloc(0) });
  });

  it('skips what a chatty login prints first and returns the bytes after the banner', () => {
    const junk = Buffer.from('Welcome to gpu!\r\n\x1b]0;title\x07A1REMOTE is great\nA1REMOTE 12x A1REMOTE \n');
    const stream = Buffer.concat([junk, banner, Buffer.from([0, 0, 0, 9, 1, 2])]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const result = scan([stream.subarray(0, cut), stream.subarray(cut)]);
      expect(result, `cut at ${cut}`).toEqual({ state: 'found', linkGen: 1, junkSeen: true, rest: Buffer.from([0, 0, 0, 9, 1, 2]) });
    }
  });

  it("reports another generation's banner as that generation", () => {
    expect(scan([Buffer.from('motd\nA1REMOTE 2\nrest')])).toMatchObject({ state: 'found', linkGen: 2, rest: Buffer.from('rest') });
  });

  it('waits while the banner is incomplete', () => {
    expect(scan([Buffer.from('hello A1REM')])).toEqual({ state: 'waiting' });
    expect(scan([Buffer.from('A1REMOTE 1')])).toEqual({ state: 'waiting' });
  });

  it('takes up to 64 KiB before the banner, even fed a byte at a time, and fails past it', () => {
    const limit = Buffer.concat([Buffer.alloc(MAX_BANNER_JUNK_BYTES, 'x'), banner]);
    expect(scan([limit])).toMatchObject({ state: 'found', junkSeen: true });
    expect(scan([...limit].map((b) => Buffer.from([b])))).toMatchObject({ state: 'found', junkSeen: true });
    expect(scan([Buffer.from('y'), limit])).toEqual({ state: 'failed' });
    expect(scan([Buffer.alloc(MAX_BANNER_JUNK_BYTES + 9, 'x')])).toEqual({ state: 'failed' });
    expect(scan([Buffer.alloc(MAX_BANNER_JUNK_BYTES + 8, 'x')])).toEqual({ state: 'waiting' });
  });

  it('fails on a huge first chunk without holding all of it', () => {
    expect(scan([Buffer.alloc(10 * 1024 * 1024, 'x')])).toEqual({ state: 'failed' });
  });

  it('gives the same answer after it is decided', () => {
    const scanner = new BannerScanner();
    const found = scanner.push(Buffer.concat([banner, Buffer.from('a')]));
    expect(scanner.push(Buffer.from('more'))).toBe(found);
  });

  it('finds the banner behind any junk under any chunking', () => {
    const prefix = Buffer.from('A1REMOTE ');
    const junk = fc.uint8Array({ maxLength: 400 }).filter((j) => Buffer.from(j).indexOf(prefix) < 0);
    fc.assert(
      fc.property(junk, fc.uint8Array({ maxLength: 50 }), fc.array(fc.nat(), { maxLength: 10 }), (j, rest, cuts) => {
        const stream = Buffer.concat([Buffer.from(j), banner, Buffer.from(rest)]);
        expect(scan(chunkedAt(stream, cuts))).toEqual({ state: 'found', linkGen: 1, junkSeen: j.length > 0, rest: Buffer.from(rest) });
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
