// A DELETE of rows whose values are stored out of line, on real servers (PostgreSQL 15 and 18): each value's
// chunks are deleted with its row (toast_delete: an index scan of the TOAST table's index, a request of each
// chunk's block to delete it), and on run 1 each all-visible page, of the table and of its TOAST table, has
// its visibility-map page pinned and its bit cleared. Before, the prediction had the rows' own requests only:
// 302 logical reads predicted where 1,103 were measured (100 rows, a 6 kB value each in 4 chunks).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { createPgDocs } from '../support/sql';
import { measurePg } from '../support/pg-lab';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

for (const [name, availability] of postgresServers()) {
  describe(`a DELETE of rows with values out of line: ${name}`, skipUnless(availability), () => {
    test('every run within 5 %, the chunks deleted with their rows', async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '64MB', autovacuum: false } });
      try {
        // k = 10 picks 100 rows, each with a value out of line.
        await createPgDocs(server.url(), ['CREATE INDEX docs_k ON docs (k)']);
        await server.restart();
        let input: PredictFixtureInput | undefined;
        const report = await measurePg(server, 'DELETE FROM docs WHERE k = 10', { onPredictionInput: (i) => (input = i as PredictFixtureInput) });
        for (const r of report.runs) {
          const [measured, predicted] = [r.measured.logicalReads!, r.predicted.logicalReads!];
          assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `run ${r.run}: ${measured} logical reads, ${predicted} predicted`);
        }
        assert.match(report.runs[0].prediction!.assumptions.join('\n'), /100 out-of-line values of the deleted rows \(read after the runs\), 4\.0 chunks each/);
        const facts = input!.facts as { relations: unknown[]; settings: Record<string, unknown> };
        const { writtenOutOfLine: _w, ...settings } = facts.settings;
        const rowsOnly = predictFixture({ ...input!, facts: { ...facts, settings } }, { whatIf: false }).runs[1].predicted.logicalReads!;
        const measured2 = report.runs[1].measured.logicalReads!;
        assert.ok(rowsOnly < 0.5 * measured2, `the mechanism matters: the rows alone predict ${rowsOnly} logical reads on run 2, ${measured2} measured`);
      } finally {
        await server.stop();
      }
    });
  });
}
