// Which client's rules split a SQL file into statements: psql's, or the mysql/mariadb client's.
export type Dialect = 'postgresql' | 'mysql';
