// The counters a workload run is measured between, read on a real PostgreSQL: the reader's own start-up and
// readings must not land in the window it measures.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalPostgres } from '../../src/local-server/postgres';
import { parseConnectionUrl } from '../../src/db/connection-url';
import { openCounterReader, settledCounters } from '../../src/workload/counter-sampler';
import { need, skipUnless, postgresServers } from '../support/engines';

for (const [name, availability] of postgresServers()) {
  describe(`workload counters: ${name}`, skipUnless(availability), () => {
    let server: LocalPostgres;
    before(async () => {
      server = await LocalPostgres.start({ binaries: need(availability), settings: { autovacuum: false } });
    });
    after(async () => {
      await server?.stop();
    });

    test('two settled readings with nothing run between them agree, and a later reader sees no more: the readers count none of their own reads', async () => {
      const target = parseConnectionUrl(server.url());
      const reader = await openCounterReader(target);
      try {
        const first = await settledCounters(reader, target.engine, undefined);
        const second = await settledCounters(reader, target.engine, undefined);
        assert.deepEqual([second.requests, second.reads], [first.requests, first.reads]);
      } finally {
        await reader.close();
      }
      // A reader opened since reports its own start-up before it reads; the one closed adds nothing on exit.
      const other = await openCounterReader(target);
      try {
        const a = await settledCounters(other, target.engine, undefined);
        const b = await settledCounters(other, target.engine, undefined);
        assert.equal(b.requests, a.requests, 'the second reader counts its own reads');
      } finally {
        await other.close();
      }
    });
  });
}
