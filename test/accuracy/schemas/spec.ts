// Schemas nobody tuned the model on: an order-processing shape (customers, and orders that point at them)
// whose every property is drawn from a seed — row counts and widths, fill, the primary key (serial, UUID-like
// or composite), which secondary indexes exist and how (plain, covering, partial, composite, unique), how a
// date follows insertion (in order, with jitter, not at all), how customers are spread (uniform or skewed),
// and whether some notes are long enough to be stored out of line. Every value a row holds is an integer
// hash of its insertion number, the same in TypeScript and in both engines' SQL, so a statement can name a
// row that exists without asking the server. Pure: a seed in, a description out. Not a test file itself.
import { SeededRandom } from '../../../src/sim/random';

export type KeyKind = 'serial' | 'uuid' | 'composite';
export type DateOrder = 'ordered' | 'jittered' | 'none';
export type Spread = 'uniform' | 'skewed';
export type DateIndex = 'plain' | 'covering' | 'partial';

export interface SchemaSpec {
  seed: number;
  customers: { rows: number; nameWidth: number };
  orders: {
    rows: number;
    key: KeyKind;
    /** PostgreSQL's fillfactor for the heap (InnoDB has none for its clustered index). */
    fillfactor: number;
    /** Bytes of filler each row carries besides its small columns. */
    padWidth: number;
    placed: DateOrder;
    rowsPerDay: number;
    /** For a jittered date: how many days either side of the insertion day a row may fall. */
    jitterDays: number;
    customer: Spread;
    /** Per cent of rows whose note is long (0: none). */
    longNotesPercent: number;
    /** A long note's length in bytes (incompressible): PostgreSQL stores it out of line above about 2 kB, InnoDB above about 8 kB. */
    noteBytes: number;
    dateIndex: DateIndex;
    /** A secondary index on (cust_id) or (cust_id, placed); none where the primary key starts with cust_id. */
    customerIndex: 'plain' | 'composite' | 'none';
    uniqueCode: boolean;
  };
}

const LONG_NOTE_BUDGET = 60_000_000;

const pick = <T>(r: SeededRandom, xs: readonly T[]): T => xs[r.int(xs.length)];

export function drawSchema(seed: number): SchemaSpec {
  // Neighbouring seeds start mulberry32 in neighbouring states: mixed first, so seeds 1, 2, 3 draw apart.
  const r = new SeededRandom(Math.imul(seed, 0x9e3779b1) ^ 0x5bd1e995);
  const key = pick(r, ['serial', 'uuid', 'composite'] as const);
  const rows = pick(r, [60_000, 120_000, 200_000, 300_000]);
  const noteBytes = pick(r, [2_600, 6_000, 12_000]);
  // At most about 60 MB of long notes: a load and its pools stay what a test machine holds.
  const longNotesPercent = Math.min(pick(r, [0, 0, 5, 20, 50]), Math.floor((LONG_NOTE_BUDGET * 100) / (rows * noteBytes)));
  return {
    seed,
    customers: { rows: pick(r, [5_000, 20_000, 60_000]), nameWidth: pick(r, [20, 60, 200]) },
    orders: {
      rows,
      key,
      fillfactor: pick(r, [70, 90, 100]),
      padWidth: pick(r, [16, 80, 200, 400]),
      placed: pick(r, ['ordered', 'jittered', 'none'] as const),
      rowsPerDay: pick(r, [50, 200, 1_000]),
      jitterDays: pick(r, [1, 3, 10]),
      customer: pick(r, ['uniform', 'skewed'] as const),
      longNotesPercent,
      noteBytes,
      dateIndex: pick(r, ['plain', 'covering', 'partial'] as const),
      customerIndex: key === 'composite' ? 'none' : pick(r, ['plain', 'composite'] as const),
      uniqueCode: r.next() < 0.6,
    },
  };
}

/** A one-line description for reports: what this seed drew. */
export function describeSchema(s: SchemaSpec): string {
  const o = s.orders;
  const notes = o.longNotesPercent > 0 ? `${o.longNotesPercent} % long notes of ${o.noteBytes.toLocaleString('en-US')} B` : 'no long notes';
  return (
    `seed ${s.seed}: ${s.customers.rows.toLocaleString('en-US')} customers, ${o.rows.toLocaleString('en-US')} orders, ` +
    `${o.key} key, fillfactor ${o.fillfactor}, ${o.padWidth} B pad, date ${o.placed}${o.placed === 'jittered' ? ` ±${o.jitterDays} d` : ''} ` +
    `(${o.rowsPerDay} rows a day), ${o.customer} customers, ${notes}, date index ${o.dateIndex}, customer index ${o.customerIndex}` +
    (o.uniqueCode ? ', unique code' : '')
  );
}

// The row values, as integer expressions of the insertion number g that both engines compute exactly:
// every product stays below 2^53 (g < 3.3 million).
const MULTIPLIER = 2_654_435_761;
const MODULUS = 4_294_967_291;
const CODE_PRIME = 1_000_003;

export function rowHash(g: number, salt: number): number {
  return ((g + salt) * MULTIPLIER) % MODULUS;
}

/** The same hash in SQL over an integer expression `g` (bigint arithmetic on both engines). */
export function sqlHash(g: string, salt: number): string {
  return `((${g} + ${salt}) * ${MULTIPLIER} % ${MODULUS})`;
}

export function customerOf(s: SchemaSpec, g: number): number {
  const n = s.customers.rows;
  return s.orders.customer === 'uniform' ? 1 + (rowHash(g, 1) % n) : 1 + (rowHash(g, 1) % (1 + (rowHash(g, 2) % n)));
}

export function sqlCustomerOf(s: SchemaSpec, g: string): string {
  const n = s.customers.rows;
  return s.orders.customer === 'uniform' ? `(1 + ${sqlHash(g, 1)} % ${n})` : `(1 + ${sqlHash(g, 1)} % (1 + ${sqlHash(g, 2)} % ${n}))`;
}

export function days(s: SchemaSpec): number {
  return Math.ceil(s.orders.rows / s.orders.rowsPerDay);
}

/** `div` is the dialect's integer division. */
export function sqlPlaced(s: SchemaSpec, g: string, div: (a: string, b: number) => string): string {
  const o = s.orders;
  if (o.placed === 'ordered') return div(g, o.rowsPerDay);
  if (o.placed === 'jittered') return `(${div(g, o.rowsPerDay)} + ${sqlHash(g, 3)} % ${2 * o.jitterDays + 1} - ${o.jitterDays})`;
  return `(${sqlHash(g, 3)} % ${days(s)})`;
}

export function codeOf(g: number): number {
  return (g * 7_919) % CODE_PRIME;
}

export function sqlCode(g: string): string {
  return `(${g} * 7919 % ${CODE_PRIME})`;
}

export function sqlLongNote(s: SchemaSpec, g: string): string {
  return `${sqlHash(g, 6)} % 100 < ${s.orders.longNotesPercent}`;
}
