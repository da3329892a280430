// How out-of-line values lie in a TOAST table: each value cut into chunks of TOAST_MAX_CHUNK_SIZE bytes,
// stored as rows one after another, a new block begun where the next row does not fit. Values of one size
// repeat the same pattern, so one cycle of it gives every value's first block and the blocks it spans.
// Checked against a TOAST table of 2,000 values of five sizes (2.5–9 kB): 1.5 blocks a value, as its
// fetches measured, where spreading chunks evenly over the blocks gave 1.41.

/** Bytes of the page header (PageHeaderData, MAXALIGNed) and of a line pointer. */
const PAGE_HEADER = 24;
const LINE_POINTER = 4;
/** A chunk row's header (the tuple header, MAXALIGNed) and its columns besides the data (chunk_id, chunk_seq, varlena header). */
const ROW_HEADER = 24;
const ROW_COLUMNS = 12;
const MAXALIGN = 8;

/** A chunk's data bytes (TOAST_MAX_CHUNK_SIZE): four full chunk rows fill a block. */
export const toastChunkBytes = (blockSize: number): number =>
  Math.floor((blockSize - (PAGE_HEADER + 4 * LINE_POINTER)) / 4 / MAXALIGN) * MAXALIGN - ROW_HEADER - ROW_COLUMNS;

export interface ToastLayout {
  /** Per value of one cycle: the block (from the cycle's start) its first chunk lies on, and how many blocks it spans. */
  first: number[];
  spans: number[];
  /** Blocks one cycle fills. */
  blocks: number;
}

/** The layout of values of `bytes` bytes each; a cycle ends where a value begins on a fresh block again. */
export function toastLayout(bytes: number, blockSize: number, maxValues = 4096): ToastLayout {
  const chunk = toastChunkBytes(blockSize);
  const room = blockSize - PAGE_HEADER;
  const rows: number[] = [];
  for (let left = Math.max(1, Math.round(bytes)); left > 0; left -= chunk) {
    rows.push(Math.ceil((ROW_HEADER + ROW_COLUMNS + Math.min(chunk, left)) / MAXALIGN) * MAXALIGN + LINE_POINTER);
  }
  const first: number[] = [];
  const spans: number[] = [];
  let block = 0;
  let used = 0;
  // Per room used at a value's start: the value, and the block it starts from.
  const seen = new Map<number, [number, number]>();
  for (let v = 0; v < maxValues; v++) {
    const earlier = seen.get(used);
    if (earlier) return cycleFrom(first, spans, earlier, block);
    seen.set(used, [v, block]);
    let start = -1;
    for (const r of rows) {
      if (used + r > room) [block, used] = [block + 1, 0];
      if (start < 0) start = block;
      used += r;
    }
    first.push(start);
    spans.push(block - start + 1);
  }
  return { first, spans, blocks: block + (used > 0 ? 1 : 0) };
}

/** The values from `from` on repeat: a cycle that begins at a value boundary with the same room used. */
function cycleFrom(first: number[], spans: number[], [from, base]: [number, number], block: number): ToastLayout {
  return { first: first.slice(from).map((b) => b - base), spans: spans.slice(from), blocks: Math.max(1, block - base) };
}
