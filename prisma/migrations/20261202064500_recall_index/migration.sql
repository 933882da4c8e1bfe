-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN "forks" INTEGER NOT NULL DEFAULT 0;

-- Raw SQL below: Prisma does not model it (scripts/lib/migrate.ts keeps its diff away from these objects).
-- How many times a message was added beside an existing one (an edit or a regenerated answer made a branch). Zero
-- means the conversation is one path, so recall tells whether a message is on the question's path by its seq alone
-- and only walks parent links in branched conversations. Kept by these triggers, whatever code writes the messages;
-- it never goes down (messages leave only with their conversation), and counting too much only costs a walk.
UPDATE "ChatSession" SET "forks" = (
  SELECT COUNT(*) FROM (
    SELECT 1 FROM "ChatMessage" m WHERE m."sessionId" = "ChatSession"."id" GROUP BY m."parentId" HAVING COUNT(*) > 1
  )
);

CREATE TRIGGER "ChatMessage_fork_insert" AFTER INSERT ON "ChatMessage"
WHEN EXISTS (
  SELECT 1 FROM "ChatMessage" c
  WHERE c."sessionId" = NEW."sessionId" AND c."parentId" IS NEW."parentId" AND c."id" <> NEW."id"
)
BEGIN
  UPDATE "ChatSession" SET "forks" = "forks" + 1 WHERE "id" = NEW."sessionId";
END;

CREATE TRIGGER "ChatMessage_fork_update" AFTER UPDATE OF "parentId" ON "ChatMessage"
WHEN NEW."parentId" IS NOT OLD."parentId" AND EXISTS (
  SELECT 1 FROM "ChatMessage" c
  WHERE c."sessionId" = NEW."sessionId" AND c."parentId" IS NEW."parentId" AND c."id" <> NEW."id"
)
BEGIN
  UPDATE "ChatSession" SET "forks" = "forks" + 1 WHERE "id" = NEW."sessionId";
END;

-- The search index gains each document's conversation token (`conv`: 'c' + the hex of the conversation id), so
-- recall within one conversation intersects that conversation's postings with the question's. FTS5 cannot add a
-- column: the table is rebuilt, its rows read back term by term (with their order) through fts5vocab — the table is
-- contentless, and SQL alone could not cut the texts again. bm25 weighs only `body`.
CREATE VIRTUAL TABLE temp."SearchFtsTerms" USING fts5vocab(main, "SearchFts", instance);
CREATE VIRTUAL TABLE "SearchFtsNext" USING fts5(owner, conv, body, content='', contentless_delete=1, tokenize='ascii');
INSERT INTO "SearchFtsNext"("SearchFtsNext", rank) VALUES ('secure-delete', 1);
INSERT INTO "SearchFtsNext"("SearchFtsNext", rank) VALUES ('rank', 'bm25(0.0, 0.0, 1.0)');
INSERT INTO "SearchFtsNext" (rowid, owner, conv, body)
SELECT d."id", t.owner, 'c' || lower(hex(d."sessionId")), t.body
FROM (
  SELECT doc,
    group_concat(CASE WHEN col = 'owner' THEN term END, ' ' ORDER BY offset) AS owner,
    group_concat(CASE WHEN col = 'body' THEN term END, ' ' ORDER BY offset) AS body
  FROM temp."SearchFtsTerms" GROUP BY doc
) t JOIN "SearchDoc" d ON d."id" = t.doc;
DROP TABLE temp."SearchFtsTerms";
DROP TRIGGER "SearchDoc_delete_terms";
DROP TABLE "SearchFts";
ALTER TABLE "SearchFtsNext" RENAME TO "SearchFts";

-- A SearchDoc row leaves with its message, its conversation or its user (foreign-key cascades fire this trigger),
-- in the same transaction.
CREATE TRIGGER "SearchDoc_delete_terms" AFTER DELETE ON "SearchDoc" BEGIN
  DELETE FROM "SearchFts" WHERE rowid = old."id";
END;
