// INSERT … SELECT of rows whose values are stored out of line, on real servers (PostgreSQL 15 and 18): each
// value is read from its chunks and saved again under a new chunk id (a row owns its values): a probe of the
// TOAST index for the new id, and per chunk a row in the TOAST table and an entry in its index. Before, the
// prediction had the rows alone: on the schema corpus's seed 101, 1,343 requests of the TOAST table and its
// index were missing from 17,840.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { need, skipUnless, postgresServers } from '../support/engines';
import { createPgDocs } from '../support/sql';
import { measurePg } from '../support/pg-lab';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const INSERT = 'INSERT INTO docs (id, k, body) SELECT id + 100000, k, body FROM docs WHERE id BETWEEN 1001 AND 2000';

for (const [name, availability] of postgresServers()) {
  describe(`INSERT … SELECT of rows with values out of line: ${name}`, skipUnless(availability), () => {
    test('run 1 within 5 %, each value read and stored again', async () => {
      const server = await LocalPostgres.start({ binaries: need(availability), settings: { shared_buffers: '64MB', autovacuum: false } });
      try {
        await createPgDocs(server.url());
        await server.restart();
        let input: PredictFixtureInput | undefined;
        const report = await measurePg(server, INSERT, { onPredictionInput: (i) => (input = i as PredictFixtureInput) });
        // Runs 2-3 find run 1's rolled-back entries under their keys: the prediction checks each one's version,
        // where the server's bottom-up deletion of a full leaf removes many first (about 0.4 checks a key
        // measured here): not modelled, so those runs are held to 15 %.
        for (const r of report.runs) {
          const [measured, predicted] = [r.measured.logicalReads!, r.predicted.logicalReads!];
          const share = r.run === 1 ? 0.05 : 0.15;
          assert.ok(Math.abs(predicted - measured) <= share * measured, `run ${r.run}: ${measured} logical reads, ${predicted} predicted`);
        }
        assert.match(
          report.runs[0].prediction!.assumptions.join('\n'),
          /100 of the inserted rows' values stored out of line \(counted after the runs\), 4\.0 chunks each/,
        );
        const facts = input!.facts as { relations: unknown[]; settings: Record<string, unknown> };
        const { insertedOutOfLine: _i, ...settings } = facts.settings;
        const rowsOnly = predictFixture({ ...input!, facts: { ...facts, settings } }, { whatIf: false }).runs[0].predicted.logicalReads!;
        const measured1 = report.runs[0].measured.logicalReads!;
        assert.ok(rowsOnly < 0.8 * measured1, `the mechanism matters: the rows alone predict ${rowsOnly} logical reads on run 1, ${measured1} measured`);
      } finally {
        await server.stop();
      }
    });
  });
}
