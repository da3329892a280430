// Validates reports against the public contract's JSON schema (shared/contracts/report.schema.json).
import { existsSync, readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';

const CONTRACT = '../shared/contracts/report.schema.json';

export function validateReport(report: unknown): string[] {
  if (!existsSync(CONTRACT)) {
    if (process.env.CI === 'true') throw new Error(`${CONTRACT} is missing`);
    return [];
  }
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(CONTRACT, 'utf8')));
  return validate(report) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
