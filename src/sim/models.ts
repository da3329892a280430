// The models by name, as the CLI and the benchmark choose them.
import { ClockPool } from './policies/clock';
import { InnodbPool } from './policies/innodb-lru';
import { LruPool } from './policies/lru';
import { PostgresPool } from './policies/postgres-clock-sweep';
import type { BufferPoolModel } from './types';

export const MODEL_NAMES = ['lru', 'clock', 'postgresql', 'innodb'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

export function makeModel(name: ModelName, pool: number): BufferPoolModel {
  switch (name) {
    case 'lru':
      return new LruPool(pool);
    case 'clock':
      return new ClockPool(pool);
    case 'postgresql':
      return new PostgresPool(pool);
    case 'innodb':
      return new InnodbPool(pool);
  }
}
