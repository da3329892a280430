// Page-access trace files: raw little-endian u32 page ids, or libCacheSim's oracleGeneral binary format
// (24-byte records: u32 time, u64 object id, u32 size, i64 next access).
// Page ids become 31-bit non-negative integers. When every id of a trace already is one (a page trace),
// it is kept as it is, so a model that reads structure from ids (InnoDB's read-ahead areas) sees the
// trace's own neighbours. Otherwise (a u32 id with its top bit set, or a u64 object id) every id is
// renumbered through an exact map, so no two ids ever share a page; numbers are given in order of first
// appearance, spread by a bijection when the model reads neighbours from ids (else a run of new objects
// would look like a sequential scan).
// Decoding goes block by block into one reused array, with no allocation per record, so a file can be
// replayed as it is read and a 10 M-record trace never sits in memory whole.
import { IdMap } from './id-map';

export type TraceFormat = 'u32' | 'oracleGeneral';

export const RECORD_BYTES: Record<TraceFormat, number> = { u32: 4, oracleGeneral: 24 };

export interface DecodeOptions {
  /** Whether the model reads page structure from ids (then renumbered ids are spread apart). */
  spreadRenumbered?: boolean;
}

/** A source of the trace's bytes in whole records, read once per pass; stops when `visit` says false. */
export type BlockSource = (visit: (block: Uint8Array) => boolean) => void;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Words of a block as 32-bit integers (signed: no value needs a heap number), copied only when needed. */
function words(block: Uint8Array): Int32Array {
  if (LITTLE_ENDIAN && block.byteOffset % 4 === 0) return new Int32Array(block.buffer, block.byteOffset, block.byteLength >>> 2);
  const out = new Int32Array(block.byteLength >>> 2);
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * 4, true);
  return out;
}

/** Pass 1: whether any id needs more than 31 bits; stops reading at the first one. */
function anyWideId(source: BlockSource, format: TraceFormat): boolean {
  let wide = 0;
  source((block) => {
    const w = words(block);
    if (format === 'u32') for (let i = 0; i < w.length; i++) wide |= w[i];
    else for (let i = 1; i < w.length; i += 6) wide |= (w[i] >>> 31) | w[i + 1];
    return format === 'u32' ? wide >= 0 : wide === 0;
  });
  return format === 'u32' ? wide < 0 : wide !== 0;
}

/**
 * Hands `consume` the trace's page ids block by block (the array is reused: copy what must be kept).
 * Reads `source` twice: once to learn whether ids need renumbering, once to decode.
 */
export function decodeTrace(source: BlockSource, format: TraceFormat, consume: (ids: Int32Array) => void, options: DecodeOptions = {}): void {
  const ids = anyWideId(source, format) ? new IdMap(1 << 16) : undefined;
  const spread = options.spreadRenumbered ?? true;
  let out = new Int32Array(0);
  source((block) => {
    const w = words(block);
    const records = format === 'u32' ? w.length : w.length / 6;
    if (out.length < records) out = new Int32Array(records);
    const first = format === 'u32' ? 0 : 1;
    const step = format === 'u32' ? 1 : 6;
    if (ids === undefined) for (let k = 0; k < records; k++) out[k] = w[first + k * step];
    else {
      ids.numberAll(w, first, step, format !== 'u32', records, out, 0);
      // Multiplying by an odd constant is a bijection on 31-bit integers: still exact, no longer adjacent.
      if (spread) for (let k = 0; k < records; k++) out[k] = Math.imul(out[k], 0x9e3779b1) & 0x7fffffff;
    }
    consume(out.subarray(0, records));
    return true;
  });
}

/** The number of records in `byteLength` bytes; throws when the length is not a whole number of them. */
export function recordCount(byteLength: number, format: TraceFormat): number {
  const size = RECORD_BYTES[format];
  if (byteLength % size === 0) return byteLength / size;
  if (format === 'u32') throw new Error(`a u32 trace has a multiple of 4 bytes; this one has ${byteLength}`);
  throw new Error(`an oracleGeneral trace has 24-byte records; this one has ${byteLength} bytes`);
}

/** A whole trace held in memory, decoded into one array. */
export function parseTrace(bytes: Uint8Array, format: TraceFormat, options: DecodeOptions = {}): Int32Array {
  const trace = new Int32Array(recordCount(bytes.byteLength, format));
  let n = 0;
  decodeTrace(
    (visit) => void visit(bytes),
    format,
    (ids) => {
      trace.set(ids, n);
      n += ids.length;
    },
    options,
  );
  return trace;
}

export function encodeU32(trace: Int32Array): Uint8Array {
  const out = new Uint8Array(trace.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < trace.length; i++) view.setUint32(i * 4, trace[i], true);
  return out;
}

export function encodeOracleGeneral(ids: Array<number | bigint>): Uint8Array {
  const out = new Uint8Array(ids.length * 24);
  const view = new DataView(out.buffer);
  ids.forEach((id, i) => {
    view.setUint32(i * 24, i, true);
    view.setBigUint64(i * 24 + 4, BigInt(id), true);
    view.setUint32(i * 24 + 12, 4096, true);
    view.setBigInt64(i * 24 + 16, -1n, true);
  });
  return out;
}
