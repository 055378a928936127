// Text is hashed in pieces; the digest must be that of its UTF-8 bytes, also when a piece boundary
// falls inside a surrogate pair.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../build/emit/manifest.ts';

const ofBytes = (s: string) => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');

describe('sha256 of text', () => {
  it('equals the digest of the UTF-8 bytes, whatever the length', () => {
    for (const n of [0, 1, 32 * 1024 - 1, 32 * 1024, 32 * 1024 + 1, 200_000]) {
      const s = 'é,a;'.repeat(Math.ceil(n / 4)).slice(0, n);
      expect(sha256(s)).toBe(ofBytes(s));
    }
  });

  it('does not split a surrogate pair across pieces', () => {
    for (const at of [32 * 1024 - 2, 32 * 1024 - 1, 32 * 1024, 64 * 1024 - 1]) {
      const s = `${'x'.repeat(at)}😀${'y'.repeat(70_000)}`;
      expect(sha256(s)).toBe(ofBytes(s));
    }
  });

  it('hashes bytes as they are', () => {
    const b = new Uint8Array([0, 1, 2, 255]);
    expect(sha256(b)).toBe(createHash('sha256').update(b).digest('hex'));
  });
});
