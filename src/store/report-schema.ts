// A report read from outside (a file given to `bufferlens report`, an imported history) is checked against
// the report schema before anything renders it: a structurally broken report gets one line saying where,
// never a blank page. The schema is bundled, so the check needs no file at run time.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import schema from '../../schemas/report.schema.json';
import type { Report } from '../shared/report';

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** The problems found, as "path: message", at most a few; empty when the report is valid. */
export function reportProblems(value: unknown): string[] {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    validate = ajv.compile(schema);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

export function isReport(value: unknown): value is Report {
  return reportProblems(value).length === 0;
}
