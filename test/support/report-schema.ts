// Validates reports against BufferLens's own full schema (schemas/report.schema.json) and, where the
// shared contracts are beside the project (as in CI), against the public contract too.
import { existsSync, readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const OWN = 'schemas/report.schema.json';
const CONTRACT = '../shared/contracts/report.schema.json';

function errors(schemaFile: string, report: unknown): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  return validate(report) ? [] : (validate.errors ?? []).map((e) => `${schemaFile}: ${e.instancePath} ${e.message}`);
}

export function validateReport(report: unknown): string[] {
  return [...errors(OWN, report), ...(existsSync(CONTRACT) ? errors(CONTRACT, report) : [])];
}
