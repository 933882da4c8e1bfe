-- Nothing on SQLite: FTS5 walks a match in rowid order and stops at its LIMIT (lib/db/recall.ts). The PostgreSQL
-- migration of the same name adds the key indexes and the slot lookup its GIN index needs.
SELECT 1;
