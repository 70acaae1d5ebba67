import { describe, expect, it } from 'vitest';
import { crc32, inflateSync } from 'node:zlib';
import { rgbPng } from '../../../src/client/statistics/pdf/png';

// A chart goes into the PDF as an RGB PNG (no alpha channel), which pdfkit embeds without
// decoding it: read back here as any PNG reader would.
function readPng(png: Uint8Array) {
  const bytes = Buffer.from(png);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8).toString('latin1');
    const data = bytes.subarray(at + 8, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length), type).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
    chunks.push({ type, data });
    at += 12 + length;
  }
  const ihdr = chunks[0].data;
  const [width, height] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)];
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = width * 3;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x += 1) {
      const value = raw[y * (stride + 1) + 1 + x];
      const up = y ? pixels[(y - 1) * stride + x] : 0;
      pixels[y * stride + x] = filter === 2 ? (value + up) & 0xff : value;
    }
  }
  return { types: chunks.map((c) => c.type), width, height, bitDepth: ihdr[8], colourType: ihdr[9], pixels: [...pixels] };
}

describe('the chart image', () => {
  it('is an 8-bit RGB PNG of the canvas’s pixels, a transparent pixel shown on white', () => {
    // 3 × 2: red, green, blue / half-transparent black, transparent, white
    const rgba = new Uint8ClampedArray([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 128, 10, 20, 30, 0, 255, 255, 255, 255]);
    const png = readPng(rgbPng(rgba, 3, 2));
    expect(png).toMatchObject({ types: ['IHDR', 'IDAT', 'IEND'], width: 3, height: 2, bitDepth: 8, colourType: 2 });
    expect(png.pixels).toEqual([255, 0, 0, 0, 255, 0, 0, 0, 255, 127, 127, 127, 255, 255, 255, 255, 255, 255]);
  });
});
