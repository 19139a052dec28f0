/**
 * The smallest valid file of a media type, for mock answers whose body is a file: a 1x1 PNG,
 * GIF and JPEG, a one-page PDF, an empty SVG. Each is built here from its format's rules
 * (chunks and checksums, segments, cross-reference offsets), so that a viewer, an image
 * library or a PDF reader opens it. Same bytes every time; no Node or browser API.
 */

/** CRC-32 (ISO 3309, as PNG chunks use it). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Adler-32 (RFC 1950, the zlib stream's checksum). */
function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function bigEndian32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/** A PNG chunk: length, type, data and the CRC of type and data. */
function pngChunk(type: string, data: number[]): number[] {
  const typed = [...ascii(type), ...data];
  return [...bigEndian32(data.length), ...typed, ...bigEndian32(crc32(Uint8Array.from(typed)))];
}

/** A zlib stream (RFC 1950) holding `data` in one stored (uncompressed) deflate block (RFC 1951 §3.2.4). */
function zlibStored(data: number[]): number[] {
  const length = data.length;
  return [0x78, 0x01, 0x01, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff, ...data, ...bigEndian32(adler32(Uint8Array.from(data)))];
}

/** One white pixel, 8-bit greyscale (PNG colour type 0). */
function png(): number[] {
  const header = [...bigEndian32(1), ...bigEndian32(1), 8, 0, 0, 0, 0];
  // The scanline: filter type 0 (none), then the pixel.
  const pixels = zlibStored([0x00, 0xff]);
  return [0x89, ...ascii('PNG'), 0x0d, 0x0a, 0x1a, 0x0a, ...pngChunk('IHDR', header), ...pngChunk('IDAT', pixels), ...pngChunk('IEND', [])];
}

/**
 * One white pixel (GIF89a): a two-colour global table, one image, its LZW data with a
 * minimum code size of 2: the codes clear (4), colour 0 and end (5), three bits each.
 */
function gif(): number[] {
  const screen = [1, 0, 1, 0, 0x80, 0, 0];
  const colours = [0xff, 0xff, 0xff, 0, 0, 0];
  const image = [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0];
  const lzw = [2, 2, 0b01_000_100, 0b1, 0];
  return [...ascii('GIF89a'), ...screen, ...colours, ...image, ...lzw, 0x3b];
}

function jpegSegment(marker: number, data: number[]): number[] {
  const length = data.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...data];
}

/**
 * One mid-grey pixel, baseline JPEG (ITU T.81) with a JFIF header: every coefficient of its
 * one block is 0, so each Huffman table needs one code (`0`), for DC difference category 0
 * and for end-of-block; the scan is those two bits, padded with ones.
 */
function jpeg(): number[] {
  const jfif = [...ascii('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const quantisation = [0x00, ...new Array<number>(64).fill(1)];
  const frame = [8, 0, 1, 0, 1, 1, 1, 0x11, 0];
  const oneCode = (tableClass: number) => [tableClass, 1, ...new Array<number>(15).fill(0), 0];
  const scan = [1, 1, 0x00, 0, 63, 0];
  return [
    0xff,
    0xd8,
    ...jpegSegment(0xe0, jfif),
    ...jpegSegment(0xdb, quantisation),
    ...jpegSegment(0xc0, frame),
    ...jpegSegment(0xc4, oneCode(0x00)),
    ...jpegSegment(0xc4, oneCode(0x10)),
    ...jpegSegment(0xda, scan),
    0b0011_1111,
    0xff,
    0xd9,
  ];
}

/** A one-page PDF 1.4, its cross-reference table pointing at each object's first byte. */
function pdf(): number[] {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] /Resources << >> >>',
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return ascii(text);
}

function svg(): number[] {
  return ascii('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
}

const BUILDERS: Readonly<Record<string, () => number[]>> = {
  'image/png': png,
  'image/apng': png,
  'image/gif': gif,
  'image/jpeg': jpeg,
  'image/jpg': jpeg,
  'image/pjpeg': jpeg,
  'application/pdf': pdf,
  'image/svg+xml': svg,
  // Any image will do: a PNG is one.
  'image/*': png,
};

const BUILT = new Map<string, Uint8Array>();

/**
 * A fresh copy of the smallest valid file of `contentType` (its parameters ignored), or
 * undefined for a type without one here (`application/octet-stream` stays whatever bytes).
 *
 * @example
 * fileOf('image/png')?.subarray(0, 4) // 0x89 'P' 'N' 'G'
 */
export function fileOf(contentType: string): Uint8Array | undefined {
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  const build = Object.prototype.hasOwnProperty.call(BUILDERS, essence) ? BUILDERS[essence] : undefined;
  if (!build) return undefined;
  let bytes = BUILT.get(essence);
  if (!bytes) {
    bytes = Uint8Array.from(build());
    BUILT.set(essence, bytes);
  }
  return bytes.slice();
}
