-- Nothing on SQLite: scope `all` inside a project matches the project's conversation tokens in FTS5 directly
-- (lib/db/recall.ts). The PostgreSQL migration of the same name lets the slot lookup's window parts take that scope.
SELECT 1;
