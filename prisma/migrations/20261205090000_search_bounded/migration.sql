-- Nothing on SQLite: FTS5 walks a match in rowid order, so search's ranking stays bounded there (lib/db/search.ts).
-- The PostgreSQL migration of the same name adds search_ranked_docs, which ranks a bounded set of the GIN index's
-- matches (docs/decisions/017-search.md).
SELECT 1;
