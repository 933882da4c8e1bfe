-- CreateTable
CREATE TABLE "SearchIndexState" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "legacyMaxId" INTEGER NOT NULL
);

-- Hand-written: every document indexed so far may be one of those written before stems were indexed beside words
-- (docs/decisions/017-search.md); setup indexes them again and then sets 0. A new database starts at 0.
INSERT INTO "SearchIndexState" ("id", "legacyMaxId") SELECT 1, COALESCE(MAX("id"), 0) FROM "SearchDoc";
