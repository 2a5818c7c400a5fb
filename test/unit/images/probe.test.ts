// The image header probe: type and size as shown, and refusals in sentences (images made by sharp, or
// written byte by byte where sharp would refuse to make them).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageRefusal, probeImage } from '../../../electron/core/images/probe';

const bounds = { maxBytes: 1 << 20, maxPixels: 1_000_000 };
const refusal = (bytes: Uint8Array, b = bounds) => {
  try {
    probeImage(bytes, b);
  } catch (error) {
    expect(error).toBeInstanceOf(ImageRefusal);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('probeImage', () => {
  it('reads PNG, JPEG (EXIF orientation turns it), WebP, GIF and SVG headers', async () => {
    const make = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#888' } });
    expect(probeImage(await make(7, 3).png().toBuffer(), bounds)).toEqual({ mime: 'image/png', width: 7, height: 3 });
    expect(probeImage(await make(7, 3).jpeg().toBuffer(), bounds)).toEqual({ mime: 'image/jpeg', width: 7, height: 3 });
    expect(probeImage(await make(7, 3).jpeg().withMetadata({ orientation: 8 }).toBuffer(), bounds)).toEqual({ mime: 'image/jpeg', width: 3, height: 7 });
    expect(probeImage(await make(7, 3).jpeg().withMetadata({ orientation: 3 }).toBuffer(), bounds)).toEqual({ mime: 'image/jpeg', width: 7, height: 3 });
    expect(probeImage(await make(7, 3).webp().toBuffer(), bounds)).toEqual({ mime: 'image/webp', width: 7, height: 3 });
    expect(probeImage(await make(7, 3).gif().toBuffer(), bounds)).toEqual({ mime: 'image/gif', width: 7, height: 3 });
    expect(probeImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>alert(1)</script></svg>'), bounds)).toEqual({ mime: 'image/svg+xml', width: 40, height: 20 });
  });

  it('refuses what is not an image, what it does not store, and what is too big', async () => {
    expect(refusal(Buffer.from('just some text, long enough'))).toBe('not an image: its bytes are not PNG, JPEG, WebP, GIF, AVIF, BMP, TIFF or SVG (it starts like text)');
    expect(refusal(Buffer.alloc(0))).toBe('not an image: it is empty (0 bytes)');
    expect(refusal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('a PNG file whose header is damaged or cut short');
    expect(refusal(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]))).toBe('a JPEG file whose header is damaged or cut short');
    // A PSD header ("8BPS", version 1, 6 reserved bytes, channels, height, width): read, not stored.
    const psd = Buffer.alloc(26);
    psd.write('8BPS', 0, 'ascii');
    psd.writeUInt16BE(1, 4);
    psd.writeUInt16BE(3, 12);
    psd.writeUInt32BE(10, 14);
    psd.writeUInt32BE(10, 18);
    expect(refusal(psd)).toBe('a Photoshop (PSD) image, which Arbiter does not store (it takes PNG, JPEG, WebP, GIF, AVIF, BMP, TIFF or SVG); convert it to PNG');
    const png = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#888' } }).png().toBuffer();
    expect(refusal(png)).toBe('the image is 2000 × 1000 pixels (2,000,000), more than the 1,000,000 one image may have (ARBITER_IMAGE_MAX_PIXELS raises it)');
    expect(refusal(png, { maxBytes: 100, maxPixels: 1e9 })).toMatch(/^the image is [\d.]+ KiB, more than the 100 B one image may be \(ARBITER_IMAGE_MAX_BYTES raises it\)$/);
  });
});
