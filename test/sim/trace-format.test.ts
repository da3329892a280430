// Trace decoding: page ids kept as they are when they fit, every other id numbered exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IdMap } from '../../src/sim/id-map';
import { decodeTrace, encodeOracleGeneral, encodeU32, parseTrace } from '../../src/sim/trace-format';
import { SeededRandom } from '../../src/sim/random';

test('the id map numbers ids in order of first appearance and tells apart ids that share a half', () => {
  const map = new IdMap(4);
  const words = new Int32Array([7, 0, 7, 1, 7, 0, 8, 1, 7, 1, -1, -1, 8, 1]);
  const out = new Int32Array(7);
  map.numberAll(words, 0, 2, true, 7, out, 0);
  assert.deepEqual([...out], [0, 1, 0, 2, 1, 3, 2]);
  assert.equal(map.size, 4);
});

test('the id map agrees with a Map of the ids through many growths', () => {
  const rnd = new SeededRandom(11);
  const map = new IdMap(16);
  const reference = new Map<string, number>();
  const words = new Int32Array(2);
  const out = new Int32Array(1);
  for (let i = 0; i < 200_000; i++) {
    // Few distinct high halves and low halves, so many ids share one of them.
    words[0] = rnd.int(50_000) * 0x10001;
    words[1] = rnd.int(3) - 1;
    map.numberAll(words, 0, 2, true, 1, out, 0);
    const key = `${words[0]}:${words[1]}`;
    if (!reference.has(key)) reference.set(key, reference.size);
    assert.equal(out[0], reference.get(key));
  }
  assert.equal(map.size, reference.size);
});

test('page ids that fit in 31 bits are kept as they are, so InnoDB still sees neighbours', () => {
  const pages = new Int32Array([5, 6, 7, 100, 5, 0x7fffffff]);
  assert.deepEqual([...parseTrace(encodeU32(pages), 'u32')], [...pages]);
  assert.deepEqual([...parseTrace(encodeOracleGeneral([...pages].map(Number)), 'oracleGeneral')], [...pages]);
});

test('ids wider than 31 bits are renumbered exactly: ids equal in their low 31 bits stay apart', () => {
  const ids = [7, 2 ** 31 + 7, 7, 2 ** 31 + 7, 2n ** 40n + 7n, 1];
  const dense = parseTrace(encodeOracleGeneral(ids), 'oracleGeneral', { spreadRenumbered: false });
  assert.deepEqual([...dense], [0, 1, 0, 1, 2, 3]);
  const u32 = parseTrace(encodeU32(new Int32Array([7, 0x80000007 | 0, 7])), 'u32', { spreadRenumbered: false });
  assert.deepEqual([...u32], [0, 1, 0]);
});

test('renumbered ids are spread apart for models that read neighbours, still one page per id', () => {
  const ids = Array.from({ length: 1000 }, (_, i) => 2n ** 33n + BigInt(i));
  const spread = parseTrace(encodeOracleGeneral([...ids, ...ids]), 'oracleGeneral');
  assert.equal(new Set(spread.subarray(0, 1000)).size, 1000);
  assert.deepEqual([...spread.subarray(1000)], [...spread.subarray(0, 1000)]);
  let adjacent = 0;
  for (let i = 1; i < 1000; i++) if (Math.abs(spread[i] - spread[i - 1]) === 1) adjacent++;
  assert.ok(adjacent < 10, `${adjacent} of 999 new objects in a row got neighbouring page ids`);
  for (const p of spread) assert.ok(p >= 0 && p <= 0x7fffffff);
});

test('decoding block by block gives the same trace as decoding the bytes whole, with the wide id in a later block', () => {
  const ids: bigint[] = [];
  for (let i = 0; i < 3000; i++) ids.push(BigInt(i % 700));
  ids.push(2n ** 50n);
  const bytes = encodeOracleGeneral(ids);
  const whole = parseTrace(bytes, 'oracleGeneral');
  const blocks: number[] = [];
  decodeTrace(
    (visit) => {
      for (let at = 0; at < bytes.length; at += 24 * 1000) if (!visit(bytes.subarray(at, Math.min(bytes.length, at + 24 * 1000)))) return;
    },
    'oracleGeneral',
    (block) => blocks.push(...block),
  );
  assert.deepEqual(blocks, [...whole]);
  assert.equal(new Set(whole).size, 701);
});
