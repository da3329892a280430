// A name as an identifier in a statement BufferLens writes: MySQL/MariaDB's backquotes, PostgreSQL's double quotes.
export const quoteMysqlName = (name: string): string => `\`${name.replace(/`/g, '``')}\``;
export const quotePostgresName = (name: string): string => `"${name.replace(/"/g, '""')}"`;
