/**
 * A chart's pixels as a PNG without an alpha channel (RGB, 8 bits): pdfkit embeds such a file's
 * compressed data as it is, where a canvas's own PNG (RGBA) would have to be decoded first to
 * split off its alpha — which pdfkit's browser build does with fflate's worker-based inflate,
 * which the app's Content Security Policy (no blob: workers) stops, so the report would never
 * finish. Each row is stored with PNG's 'Up' filter; a pixel is set on white by its alpha.
 */
import { zlibSync } from 'fflate';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i += 1) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** RGBA pixels (a canvas's ImageData) → the bytes of an RGB PNG. */
export function rgbPng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const stride = width * 3;
  const rgb = new Uint8Array(height * stride);
  for (let p = 0, q = 0; p < width * height * 4; p += 4, q += 3) {
    const a = rgba[p + 3];
    for (let c = 0; c < 3; c += 1) rgb[q + c] = a === 255 ? rgba[p + c] : Math.round((rgba[p + c] * a + 255 * (255 - a)) / 255);
  }
  const filtered = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y += 1) {
    const row = y * (stride + 1);
    filtered[row] = 2; // Up: each byte less the byte above it
    for (let x = 0; x < stride; x += 1) filtered[row + 1 + x] = (rgb[y * stride + x] - (y ? rgb[(y - 1) * stride + x] : 0)) & 0xff;
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, adaptive filtering, no interlace
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlibSync(filtered)), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
