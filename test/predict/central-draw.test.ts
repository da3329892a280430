// The draw a prediction shows where every draw is an equally likely guess.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { centralDraw } from '../../src/predict/prediction';

const run = (logicalReads: number, physicalReads: number, readAhead = 0) => ({ logicalReads, physicalReads, readAhead });

test('the draw nearest the median is shown, not a guess the other draws reject', () => {
  // One draw of eight triggers read-ahead of a 16-page area (83 pages read); the others read 67–68.
  const draws = [[run(205, 67, 16)], [run(205, 67)], [run(205, 68)], [run(205, 67)], [run(205, 68)], [run(205, 67)], [run(205, 68)], [run(205, 67)]];
  assert.equal(centralDraw(draws), 1);
});

test('every run counts, and a tie goes to the earlier draw', () => {
  const draws = [
    [run(10, 5), run(10, 9)],
    [run(10, 5), run(10, 1)],
    [run(10, 5), run(10, 5)],
  ];
  assert.equal(centralDraw(draws), 2, 'the second run decides: 5 is the median of 9, 1 and 5');
  assert.equal(centralDraw([[run(10, 5)], [run(10, 5)]]), 0);
});

test('numbers a draw does not have (not reported) are left out of the choice', () => {
  assert.equal(
    centralDraw([
      [{ logicalReads: 12, physicalReads: null, readAhead: null }],
      [{ logicalReads: 10, physicalReads: null, readAhead: null }],
      [{ logicalReads: 11, physicalReads: null, readAhead: null }],
    ]),
    2,
  );
});
