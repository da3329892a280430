// A drawn schema as each engine's DDL and load: customers, then orders inserted in insertion-number order
// with the primary key in place (a UUID-like or composite key then takes its rows in random order, as an
// application's inserts would leave it), the secondary indexes built after the load, statistics gathered.
// Long notes are incompressible (md5 digests) so that PostgreSQL stores them out of line rather than
// compressing them. MariaDB has no partial or covering (INCLUDE) indexes: it gets a plain index and a
// composite (placed, amount) instead. Pure: the statements to send. Not a test file itself.
import { sqlCode, sqlCustomerOf, sqlHash, sqlLongNote, sqlPlaced, type SchemaSpec } from './spec';
import type { SchemaDialect } from './statements';

const DIGEST_BYTES = 32;
/** Room for the grown pads, declared up front: widening a VARCHAR past 255 would rebuild an InnoDB table. */
const MAX_PAD = 1_000;

function keyColumns(s: SchemaSpec, dialect: SchemaDialect): { column: string; value: string; primary: string } {
  const pg = dialect === 'postgresql';
  if (s.orders.key === 'serial') return { column: 'id BIGINT NOT NULL, ', value: 'g, ', primary: 'PRIMARY KEY (id)' };
  if (s.orders.key === 'uuid')
    return {
      column: pg ? 'id UUID NOT NULL, ' : 'id CHAR(32) NOT NULL, ',
      value: pg ? "md5(g::text || 'k')::uuid, " : "MD5(CONCAT(g, 'k')), ",
      primary: 'PRIMARY KEY (id)',
    };
  return { column: '', value: '', primary: 'PRIMARY KEY (cust_id, seq)' };
}

function secondaryIndexes(s: SchemaSpec, dialect: SchemaDialect): string[] {
  const o = s.orders;
  const pg = dialect === 'postgresql';
  const out: string[] = [];
  if (o.customerIndex === 'plain') out.push('CREATE INDEX orders_cust ON orders (cust_id)');
  if (o.customerIndex === 'composite') out.push('CREATE INDEX orders_cust_placed ON orders (cust_id, placed)');
  if (o.dateIndex === 'plain' || (o.dateIndex === 'partial' && !pg)) out.push('CREATE INDEX orders_placed ON orders (placed)');
  if (o.dateIndex === 'covering')
    out.push(pg ? 'CREATE INDEX orders_placed ON orders (placed) INCLUDE (amount)' : 'CREATE INDEX orders_placed ON orders (placed, amount)');
  if (o.dateIndex === 'partial' && pg) out.push('CREATE INDEX orders_placed_open ON orders (placed) WHERE status = 1');
  if (o.uniqueCode) out.push('CREATE UNIQUE INDEX orders_code ON orders (code)');
  return out;
}

export function loadStatements(s: SchemaSpec, dialect: SchemaDialect): string[] {
  const pg = dialect === 'postgresql';
  const o = s.orders;
  const div = (a: string, b: number) => (pg ? `(${a} / ${b})` : `(${a} DIV ${b})`);
  const rowsOf = (n: number) => (pg ? `generate_series(1::bigint, ${n}) g` : `(SELECT CAST(seq AS SIGNED) AS g FROM seq_1_to_${n}) s`);
  const k = keyColumns(s, dialect);
  const engine = pg ? '' : ' ENGINE=InnoDB';
  const longNote = pg
    ? `(SELECT string_agg(md5(g::text || '-' || i), '') FROM generate_series(1, ${Math.ceil(o.noteBytes / DIGEST_BYTES)}) i)`
    : `REPEAT(MD5(g), ${Math.ceil(o.noteBytes / DIGEST_BYTES)})`;
  const pad = pg ? `rpad(md5(g::text), ${o.padWidth}, 'p')` : `RPAD(MD5(g), ${o.padWidth}, 'p')`;
  const shortNote = pg ? `'note ' || g` : `CONCAT('note ', g)`;
  return [
    ...(pg ? ['CREATE EXTENSION IF NOT EXISTS pg_buffercache', 'CREATE EXTENSION IF NOT EXISTS pg_visibility'] : []),
    `CREATE TABLE customers (id INTEGER NOT NULL, name VARCHAR(${s.customers.nameWidth}) NOT NULL, region INTEGER NOT NULL, PRIMARY KEY (id))${engine}`,
    `INSERT INTO customers (id, name, region) SELECT g, ${pg ? `rpad('customer ' || g, ${s.customers.nameWidth}, '.')` : `RPAD(CONCAT('customer ', g), ${s.customers.nameWidth}, '.')`}, g % 20 FROM ${rowsOf(s.customers.rows)}`,
    `CREATE TABLE orders (${k.column}seq BIGINT NOT NULL, cust_id INTEGER NOT NULL, placed INTEGER NOT NULL, amount INTEGER NOT NULL, status SMALLINT NOT NULL, ` +
      `code BIGINT, pad VARCHAR(${MAX_PAD}), note ${pg ? 'TEXT' : 'MEDIUMTEXT'}, ${k.primary})${pg ? ` WITH (fillfactor = ${o.fillfactor})` : engine}`,
    `INSERT INTO orders (${k.column ? 'id, ' : ''}seq, cust_id, placed, amount, status, code, pad, note) ` +
      `SELECT ${k.value}g, ${sqlCustomerOf(s, 'g')}, ${sqlPlaced(s, 'g', div)}, ${sqlHash('g', 4)} % 10000, ${sqlHash('g', 5)} % 10, ${sqlCode('g')}, ${pad}, ` +
      `CASE WHEN ${sqlLongNote(s, 'g')} THEN ${longNote} ELSE ${shortNote} END FROM ${rowsOf(o.rows)}`,
    ...secondaryIndexes(s, dialect),
    ...(pg ? ['VACUUM ANALYZE', 'CHECKPOINT'] : ['ANALYZE TABLE customers, orders']),
  ];
}

/** A committed update that grows a third of the rows (new versions on PostgreSQL, page splits on InnoDB). */
export function growStatements(s: SchemaSpec, dialect: SchemaDialect): string[] {
  const pg = dialect === 'postgresql';
  const grow = Math.max(40, Math.round(s.orders.padWidth / 2));
  const pad = pg ? `pad = rpad(pad, ${s.orders.padWidth + grow}, 'g')` : `pad = RPAD(pad, ${s.orders.padWidth + grow}, 'g')`;
  return [`UPDATE orders SET ${pad} WHERE ${sqlHash('seq', 7)} % 3 = 0`, ...(pg ? ['ANALYZE', 'CHECKPOINT'] : ['ANALYZE TABLE customers, orders'])];
}
