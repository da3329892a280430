// The one decision of whether a statement runs and how: pure, so every rule is checked without a server.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, mustRun, NOTHING_REACHED, reaskBlocked, refusalError, type GateVerdict } from '../../src/measure/gate';
import { MeasureError } from '../../src/db/errors';

const safe = { commit: false, allowSideEffects: false };
const run = (v: GateVerdict) => {
  assert.equal(v.decision, 'run', JSON.stringify(v));
  return v as Extract<GateVerdict, { decision: 'run' }>;
};

describe('gate: how a statement runs', () => {
  test('a read runs read-only, a write rolled back, a write with commit committed', () => {
    assert.equal(run(decide('read', NOTHING_REACHED, safe)).mode, 'read-only');
    assert.equal(run(decide('write', NOTHING_REACHED, safe)).mode, 'rolled-back');
    assert.equal(run(decide('write', NOTHING_REACHED, { ...safe, commit: true })).mode, 'committed');
    // Committing never makes a read writable.
    assert.equal(run(decide('read', NOTHING_REACHED, { commit: true, allowSideEffects: true })).mode, 'read-only');
  });

  test('what a rollback cannot undo is refused, with consent as the remedy; consent runs it and says so', () => {
    const reached = { ...NOTHING_REACHED, outside: ['public.f runs SQL on another connection, which commits on its own'] };
    for (const role of ['read', 'write'] as const) {
      const v = decide(role, reached, safe);
      assert.equal(v.decision, 'refused');
      assert.equal(v.decision === 'refused' && v.remedy, 'consent');
      const err = refusalError(v as Extract<GateVerdict, { decision: 'refused' }>);
      assert.ok(err instanceof MeasureError && err.kind === 'refused' && err.acknowledgeable);
      assert.match(err.message, /^refused: public\.f runs SQL on another connection.*; a rollback cannot undo that \(--allow-side-effects/);
    }
    const consented = run(decide('read', reached, { ...safe, allowSideEffects: true }));
    assert.deepEqual(consented.consented, reached.outside);
    assert.ok(consented.warnings.some((w) => /^measured although a rollback cannot undo it/.test(w)));
  });

  test('a write reaching a non-transactional table is refused unless kept, with commit as the remedy; a read is not', () => {
    const reached = { ...NOTHING_REACHED, nonTransactional: [{ table: 'lab.m', engine: 'MyISAM' }] };
    const v = decide('write', reached, { ...safe, allowSideEffects: true });
    assert.equal(v.decision, 'refused');
    assert.equal(v.decision === 'refused' && v.remedy, 'commit');
    assert.match(
      refusalError(v as Extract<GateVerdict, { decision: 'refused' }>).message,
      /lab\.m uses the MyISAM engine, which is not transactional.*--commit/,
    );
    assert.equal(run(decide('write', reached, { ...safe, commit: true })).mode, 'committed');
    assert.equal(run(decide('read', reached, safe)).mode, 'read-only');
  });

  test('routines and sequences are named; sequences only where a rollback leaves them advanced', () => {
    const reached = { ...NOTHING_REACHED, routines: ['lab.f'], sequences: ['lab.sq'], sequencesSurely: false };
    const rolled = run(decide('write', reached, safe)).warnings.join('\n');
    assert.match(rolled, /user-defined routine lab\.f: their table changes are rolled back/);
    assert.match(rolled, /sequence lab\.sq may advance/);
    const read = run(decide('read', reached, safe)).warnings.join('\n');
    assert.match(read, /read-only transaction, so they cannot write/);
    assert.doesNotMatch(read, /sequence/);
    assert.doesNotMatch(run(decide('write', reached, { ...safe, commit: true })).warnings.join('\n'), /sequence/);
  });

  test('mustRun throws the refusal and passes a run; re-asking is blocked exactly when consent ran something', () => {
    assert.throws(() => mustRun(decide('read', { ...NOTHING_REACHED, outside: ['x'] }, safe)), MeasureError);
    assert.equal(reaskBlocked(mustRun(decide('read', NOTHING_REACHED, safe))), undefined);
    const consented = mustRun(decide('read', { ...NOTHING_REACHED, outside: ['x signals another session'] }, { ...safe, allowSideEffects: true }));
    assert.match(reaskBlocked(consented) ?? '', /not sent.*x signals another session/);
  });
});
