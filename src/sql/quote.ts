// A name as an identifier in a statement BufferLens writes, in MySQL/MariaDB's backquotes.
export const quoteMysqlName = (name: string): string => `\`${name.replace(/`/g, '``')}\``;
