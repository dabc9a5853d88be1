import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gradientPng } from './png';

describe('gradientPng', () => {
  it('is a valid PNG with the requested size', () => {
    const png = gradientPng(36, 64, [0, 0, 0], [255, 255, 255]);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBe(36);
    expect(png.readUInt32BE(20)).toBe(64);
    // Every chunk's CRC holds and the pixel data inflates to height * (1 + width * 3) bytes.
    let offset = 8;
    let idat = Buffer.alloc(0);
    while (offset < png.length) {
      const length = png.readUInt32BE(offset);
      const typeAndData = png.subarray(offset + 4, offset + 8 + length);
      expect(png.readUInt32BE(offset + 8 + length)).toBe(zlib.crc32(typeAndData) >>> 0);
      if (typeAndData.subarray(0, 4).toString() === 'IDAT') idat = Buffer.concat([idat, typeAndData.subarray(4)]);
      offset += 12 + length;
    }
    const pixels = zlib.inflateSync(idat);
    expect(pixels.length).toBe(64 * (1 + 36 * 3));
    expect([...pixels.subarray(1, 4)]).toEqual([0, 0, 0]);
    expect([...pixels.subarray(pixels.length - 3)]).toEqual([255, 255, 255]);
  });
});
