// The demo's workload on its events table (500,000 rows, an index on id): mostly hot keys, some ranges.
// `bufferlens demo` writes it beside its reports, so it can be opened in the editor and predicted again.
export const DEMO_WORKLOAD = `-- A BufferLens workload: pgbench's script syntax. Each "weight" line starts a statement of the mix.
-- Predict it with the lens above, or: bufferlens workload predict --url URL demo-workload.sql
\\set hot random_zipfian(1, 500000, 1.1)
\\set id random(1, 499900)
\\set id_end :id + 100
-- bufferlens: weight 8
SELECT payload FROM events WHERE id = :hot;
-- bufferlens: weight 2
SELECT count(*) FROM events WHERE id BETWEEN :id AND :id_end;
`;
