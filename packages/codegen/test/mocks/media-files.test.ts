/**
 * The files mocks answer for images and PDFs (templates/mocks/media-files.ts) follow their
 * formats: checked here part by part, as a reader of each format would walk them.
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileOf } from '../../templates/mocks/media-files.js';

const bytesOf = (type: string) => Buffer.from(fileOf(type)!);

describe('media files', () => {
  it('a PNG: IHDR of 1x1, an IDAT that inflates to one scanline, IEND', () => {
    const png = bytesOf('image/png');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const types: string[] = [];
    for (let at = 8; at < png.length; ) {
      const length = png.readUInt32BE(at);
      const type = png.subarray(at + 4, at + 8).toString('latin1');
      const data = png.subarray(at + 8, at + 8 + length);
      types.push(type);
      if (type === 'IHDR') expect([...data]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
      // zlib checks the stream's Adler-32 as it inflates.
      if (type === 'IDAT') expect([...inflateSync(data)]).toEqual([0, 0xff]);
      at += 12 + length;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
  });

  it('a GIF: 1x1 screen and image, LZW data, trailer', () => {
    const gif = bytesOf('image/gif');
    expect(gif.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect(gif.readUInt16LE(6)).toBe(1);
    expect(gif.readUInt16LE(8)).toBe(1);
    const image = gif.indexOf(0x2c, 13);
    expect(gif.readUInt16LE(image + 5)).toBe(1);
    expect(gif.readUInt16LE(image + 7)).toBe(1);
    expect(gif.at(-1)).toBe(0x3b);
  });

  it('a JPEG: SOI, segments whose lengths chain up to the scan, EOI', () => {
    const jpeg = bytesOf('image/jpeg');
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    const markers: number[] = [];
    let at = 2;
    while (jpeg[at] === 0xff && jpeg[at + 1] !== 0xda) {
      markers.push(jpeg[at + 1]!);
      at += 2 + jpeg.readUInt16BE(at + 2);
    }
    expect(markers).toEqual([0xe0, 0xdb, 0xc0, 0xc4, 0xc4]);
    expect(jpeg[at + 1]).toBe(0xda);
    const frame = jpeg.subarray(jpeg.indexOf(Buffer.from([0xff, 0xc0])) + 4);
    expect([frame.readUInt16BE(1), frame.readUInt16BE(3)]).toEqual([1, 1]);
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it('a PDF: each cross-reference offset points at its object, startxref at the table', () => {
    const pdf = bytesOf('application/pdf').toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)![1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const entries = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(entries).toHaveLength(3);
    entries.forEach((offset, i) => expect(pdf.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true));
    expect(pdf).toContain('/Type /Page ');
  });

  it('none for octet-stream, a fresh copy each time, the same bytes every time', () => {
    expect(fileOf('application/octet-stream')).toBeUndefined();
    expect(fileOf('image/png; charset=binary')).toEqual(fileOf('image/png'));
    const one = fileOf('image/png')!;
    one[0] = 0;
    expect(fileOf('image/png')![0]).toBe(0x89);
  });
});
