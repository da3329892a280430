// Streams a trace file in blocks of whole records through one reused buffer: a 240 MB file never sits in
// memory (reading it whole cost about a second here, mostly page faults on the fresh buffer).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { decodeTrace, RECORD_BYTES, recordCount, type BlockSource, type DecodeOptions, type TraceFormat } from '../sim/trace-format';

const BLOCK_RECORDS = 1 << 16;

/** Hands `consume` the file's page ids block by block; returns how many there were. */
export function streamTraceFile(path: string, format: TraceFormat, consume: (ids: Int32Array) => void, options: DecodeOptions = {}): number {
  const fd = openSync(path, 'r');
  try {
    const records = recordCount(fstatSync(fd).size, format);
    const size = RECORD_BYTES[format];
    const block = Buffer.allocUnsafeSlow(BLOCK_RECORDS * size);
    // Never past the length measured above, so a file that grows meanwhile is read as it was.
    const end = records * size;
    const source: BlockSource = (visit) => {
      let position = 0;
      for (;;) {
        const filled = fillBlock(fd, block.subarray(0, Math.min(block.length, end - position)), position);
        position += filled;
        if (filled === 0 || filled % size !== 0 || !visit(block.subarray(0, filled)) || position >= end) break;
      }
    };
    let seen = 0;
    decodeTrace(
      source,
      format,
      (ids) => {
        seen += ids.length;
        consume(ids);
      },
      options,
    );
    if (seen !== records) throw new Error(`the trace file changed while it was read: ${seen} records where ${records} were expected`);
    return seen;
  } finally {
    closeSync(fd);
  }
}

/** Reads until the block is full or the file ends (a file that shrank meanwhile: fewer records seen). */
function fillBlock(fd: number, block: Buffer, position: number): number {
  let filled = 0;
  while (filled < block.length) {
    const n = readSync(fd, block, filled, block.length - filled, position + filled);
    if (n === 0) break;
    filled += n;
  }
  return filled;
}
