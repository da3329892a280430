// The statements measured on a drawn schema: the shapes users send (points, key ranges, composite prefixes,
// date ranges through an index that follows insertion or not, index-only counts, IN lists, unique lookups,
// joins both ways, ORDER BY … LIMIT by index and by sort, aggregates, full scans, long values read, range
// UPDATE, DELETE, INSERT … SELECT of new keys), each drawn from a seed with parameters that name existing
// rows. A shape the schema cannot have (a key range on a UUID key) is left out. Pure. Not a test file itself.
import { createHash } from 'node:crypto';
import { codeOf, customerOf, days, type SchemaSpec } from './spec';
import type { CorpusStatement } from '../innodb-corpus';

export type SchemaDialect = 'postgresql' | 'mariadb';

/** The UUID-like key of insertion number g, as the loader stores it. */
export function uuidOf(g: number, dialect: SchemaDialect): string {
  const h = createHash('md5').update(`${g}k`).digest('hex');
  return dialect === 'mariadb' ? h : `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The predicate naming the row inserted g-th by its primary key. */
function keyOf(s: SchemaSpec, g: number, dialect: SchemaDialect): string {
  if (s.orders.key === 'serial') return `id = ${g}`;
  if (s.orders.key === 'uuid') return `id = '${uuidOf(g, dialect)}'`;
  return `cust_id = ${customerOf(s, g)} AND seq = ${g}`;
}

function newKey(s: SchemaSpec, offset: number, dialect: SchemaDialect): string {
  if (s.orders.key === 'serial') return `id + ${offset}, `;
  if (s.orders.key === 'uuid') return dialect === 'mariadb' ? `MD5(CONCAT(seq + ${offset}, 'k')), ` : `md5((seq + ${offset})::text || 'k')::uuid, `;
  return '';
}

interface Draw {
  row: () => number;
  day: (span: number) => number;
  customer: () => number;
  int: (lo: number, hi: number) => number;
}

function draws(s: SchemaSpec, rand: () => number): Draw {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  return {
    int,
    row: () => int(1, s.orders.rows),
    day: (span) => int(1, Math.max(1, days(s) - span - 1)),
    customer: () => customerOf(s, int(1, s.orders.rows)),
  };
}

/** Days holding about `rows` rows. */
const spanFor = (s: SchemaSpec, rows: number) => Math.max(1, Math.round(rows / s.orders.rowsPerDay));

function readShapes(s: SchemaSpec, d: Draw, dialect: SchemaDialect): Array<[string, string | undefined]> {
  const o = s.orders;
  const dateRange = (rows: number) => {
    const span = spanFor(s, rows);
    const a = d.day(span);
    return `placed BETWEEN ${a} AND ${a + span - 1}`;
  };
  const partial = o.dateIndex === 'partial' && dialect === 'postgresql' ? ' AND status = 1' : '';
  const keyRange = () => {
    const a = d.int(1, o.rows - 2_000);
    return `id BETWEEN ${a} AND ${a + d.int(100, 1_999)}`;
  };
  const ins = Array.from({ length: d.int(5, 30) }, () => d.customer());
  return [
    ['point by primary key', `SELECT amount, pad FROM orders WHERE ${keyOf(s, d.row(), dialect)}`],
    ['primary key range', o.key === 'serial' ? `SELECT sum(amount) FROM orders WHERE ${keyRange()}` : undefined],
    ['one customer (index prefix)', `SELECT count(*), sum(amount) FROM orders WHERE cust_id = ${d.customer()}`],
    [`date range (${o.placed}), row lookups`, `SELECT amount, pad FROM orders WHERE ${dateRange(d.int(200, 3_000))}${partial}`],
    [`date count (${o.placed}), index only`, `SELECT count(*) FROM orders WHERE ${dateRange(d.int(1_000, 20_000))}${partial}`],
    ['customers IN list', `SELECT count(*), sum(amount) FROM orders WHERE cust_id IN (${[...new Set(ins)].join(', ')})`],
    ['unique code lookup', o.uniqueCode ? `SELECT amount FROM orders WHERE code = ${codeOf(d.row())}` : undefined],
    [
      'join to customers by date',
      `SELECT c.region, count(*), sum(o.amount) FROM orders o JOIN customers c ON c.id = o.cust_id WHERE o.${dateRange(d.int(500, 5_000))} GROUP BY c.region`,
    ],
    [
      'customers with their orders',
      (() => {
        const a = d.int(1, s.customers.rows - 30);
        return `SELECT c.name, o.amount FROM customers c JOIN orders o ON o.cust_id = c.id WHERE c.id BETWEEN ${a} AND ${a + d.int(3, 29)}`;
      })(),
    ],
    ['latest by date (ORDER BY … DESC LIMIT)', `SELECT amount, pad FROM orders ORDER BY placed DESC LIMIT ${d.int(10, 300)}`],
    ['top amounts in a date range (sort)', `SELECT amount, cust_id FROM orders WHERE ${dateRange(d.int(500, 5_000))} ORDER BY amount DESC LIMIT 20`],
    ['aggregate over the table', 'SELECT status, count(*), avg(amount) FROM orders GROUP BY status'],
    ['full scan with a filter', `SELECT count(*) FROM orders WHERE pad LIKE '%${d.int(10, 99)}a%'`],
    ['long values read', o.longNotesPercent > 0 ? `SELECT sum(length(note)) FROM orders WHERE ${dateRange(d.int(200, 2_000))}` : undefined],
  ];
}

function writeShapes(s: SchemaSpec, d: Draw, dialect: SchemaDialect): Array<[string, string | undefined]> {
  const o = s.orders;
  const span = spanFor(s, d.int(200, 2_000));
  const a = d.day(span);
  const from = d.int(1, o.rows - 1_000);
  const code = o.uniqueCode ? `code + ${2 * o.rows + 1_000_003}` : 'code';
  return [
    ['range UPDATE by date', `UPDATE orders SET amount = amount + 1 WHERE placed BETWEEN ${a} AND ${a + span - 1}`],
    ['DELETE one customer', `DELETE FROM orders WHERE cust_id = ${d.customer()}`],
    [
      'INSERT … SELECT of new keys',
      `INSERT INTO orders (${o.key === 'composite' ? '' : 'id, '}seq, cust_id, placed, amount, status, code, pad, note) ` +
        `SELECT ${newKey(s, o.rows, dialect)}seq + ${o.rows}, cust_id, placed + ${days(s)}, amount, status, ${code}, pad, note ` +
        `FROM orders WHERE seq BETWEEN ${from} AND ${from + d.int(100, 999)}`,
    ],
  ];
}

export function schemaStatements(s: SchemaSpec, rand: () => number, dialect: SchemaDialect): CorpusStatement[] {
  const d = draws(s, rand);
  return [...readShapes(s, d, dialect), ...writeShapes(s, d, dialect)]
    .filter((x): x is [string, string] => x[1] !== undefined)
    .map(([shape, sql]) => ({ shape, sql }));
}

/** What a mixed workload sends before the warm state: point selects, short ranges and committed single-row updates. */
export function mixedStatement(s: SchemaSpec, rand: () => number, dialect: SchemaDialect): string {
  const d = draws(s, rand);
  const x = rand();
  if (x < 0.5) return `SELECT amount FROM orders WHERE ${keyOf(s, d.row(), dialect)}`;
  if (x < 0.7) return `SELECT count(*) FROM orders WHERE cust_id = ${d.customer()}`;
  if (x < 0.85) {
    const a = d.day(2);
    return `SELECT sum(amount) FROM orders WHERE placed BETWEEN ${a} AND ${a + 1}`;
  }
  if (x < 0.95) return `SELECT name FROM customers WHERE id = ${d.int(1, s.customers.rows)}`;
  return `UPDATE orders SET amount = amount + 1 WHERE ${keyOf(s, d.row(), dialect)}`;
}
