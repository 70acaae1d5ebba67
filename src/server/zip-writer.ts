import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';

interface Entry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** The DOS time and date a zip entry carries. */
function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(d.getFullYear(), 1980) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** The most a zip without its 64-bit extension holds: sizes and offsets of 32 bits, 65,535 entries. */
const ZIP32_BYTES = 0xffffffff;
const ZIP32_ENTRIES = 0xffff;

/**
 * A zip written one entry at a time into `out` (part after part, in order: an array, a file),
 * each entry deflated by Node's zlib on libuv's threads — so the event loop only hands chunks
 * over while another core compresses (fflate deflates in JavaScript on the event loop: 4 of the
 * 9 s of a 25,000-reply export, and turns of 100 ms in a backup). Entries are streamed, so their
 * sizes and checksums follow them in data descriptors (general flag bit 3). The statistics
 * export and the backup archive both write theirs with it.
 */
export class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly stamp = dosTime(new Date());

  constructor(private readonly out: (part: Buffer) => void) {}

  private push(part: Buffer) {
    this.out(part);
    this.offset += part.length;
  }

  /** Thrown by the next write rather than in zlib's 'data' event, where it would end the process. */
  private assertFits() {
    if (this.offset > ZIP32_BYTES) throw new Error('the archive has grown past the 4 GiB a zip without its 64-bit extension can hold');
  }

  /**
   * Opens an entry: write its chunks, then end it before the next one opens. `level` is zlib's:
   * 1 by default, where at 6 the deflate thread was a waiting export's bottleneck (the event loop
   * idle, waiting on it) for a file a third smaller.
   */
  entry(path: string, level = 1): { write(chunk: Uint8Array): Promise<void>; end(): Promise<void> } {
    if (this.entries.length >= ZIP32_ENTRIES) throw new Error(`a zip without its 64-bit extension holds at most ${ZIP32_ENTRIES} entries`);
    const name = Buffer.from(path, 'utf8');
    const entry: Entry = { name, crc: 0, compressed: 0, size: 0, offset: this.offset };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 name
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    header.writeUInt16LE(name.length, 26);
    this.push(header);
    this.push(name);
    const deflate = createDeflateRaw({ level });
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.push(chunk);
    });
    const ended = once(deflate, 'end');
    return {
      write: async (chunk) => {
        this.assertFits();
        entry.crc = crc32(chunk, entry.crc);
        entry.size += chunk.length;
        if (!deflate.write(chunk)) await once(deflate, 'drain');
      },
      end: async () => {
        deflate.end();
        await ended;
        this.assertFits();
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(entry.crc >>> 0, 4);
        descriptor.writeUInt32LE(entry.compressed, 8);
        descriptor.writeUInt32LE(entry.size, 12);
        this.push(descriptor);
        this.entries.push(entry);
      },
    };
  }

  /** The central directory, written after the entries: the zip is complete. */
  finish(): void {
    this.assertFits();
    const start = this.offset;
    for (const e of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0808, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(this.stamp.time, 12);
      record.writeUInt16LE(this.stamp.date, 14);
      record.writeUInt32LE(e.crc >>> 0, 16);
      record.writeUInt32LE(e.compressed, 20);
      record.writeUInt32LE(e.size, 24);
      record.writeUInt16LE(e.name.length, 28);
      record.writeUInt32LE(e.offset, 42);
      this.push(record);
      this.push(e.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.push(end);
  }
}
