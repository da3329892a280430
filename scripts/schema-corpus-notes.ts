// What explains the schema corpus's misses, per statement class, as they were studied. A class that misses
// with no entry shows as not yet explained.
export const SCHEMA_MISSES: Record<string, string> = {};
