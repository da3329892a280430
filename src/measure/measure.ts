// The one entry point for measuring, whatever the engine: the registry picks the engine's session and
// predictor, run-measurement.ts runs the lifecycle.
import type { ConnectionTarget } from '../db/connection-url';
import type { Report } from '../shared/report';
import type { MeasureOptions } from './options';
import { ENGINES } from './engines';

export function measure(target: ConnectionTarget, options: MeasureOptions): Promise<Report> {
  return ENGINES[target.engine].measure(target, options);
}
