// Page-access trace files: raw little-endian u32 page ids, or libCacheSim's oracleGeneral binary format
// (24-byte records: u32 time, u64 object id, u32 size, i64 next access). Page ids become 31-bit
// non-negative integers: u32 ids lose their top bit, u64 object ids are folded by a hash.

export type TraceFormat = 'u32' | 'oracleGeneral';

export function parseTrace(bytes: Uint8Array, format: TraceFormat): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'u32') {
    if (bytes.byteLength % 4 !== 0) throw new Error(`a u32 trace has a multiple of 4 bytes; this one has ${bytes.byteLength}`);
    const out = new Int32Array(bytes.byteLength / 4);
    for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true) & 0x7fffffff;
    return out;
  }
  if (bytes.byteLength % 24 !== 0) throw new Error(`an oracleGeneral trace has 24-byte records; this one has ${bytes.byteLength} bytes`);
  const out = new Int32Array(bytes.byteLength / 24);
  for (let i = 0; i < out.length; i++) {
    const lo = view.getUint32(i * 24 + 4, true);
    const hi = view.getUint32(i * 24 + 8, true);
    out[i] = (lo ^ Math.imul(hi ^ (hi >>> 15), 0x2c1b3c6d)) & 0x7fffffff;
  }
  return out;
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
