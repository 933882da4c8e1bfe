-- CreateTable
CREATE TABLE "SearchDoc" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "messageId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "terms" tsvector,
    CONSTRAINT "SearchDoc_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "ChatMessage" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "SearchDoc_messageId_key" ON "SearchDoc"("messageId");

-- Raw SQL below: Prisma does not model it (scripts/lib/migrate.ts keeps its diff away from these objects).
-- The terms of each SearchDoc, written by the app (lib/search preprocesses the text: CJK becomes bigrams, which SQL
-- cannot do): `owner` holds one token per user so a search intersects the user's postings instead of filtering
-- everyone's matches; `body` the message's terms. Contentless (the text stays in ChatMessage) with
-- contentless_delete, so a row goes by its id alone; the 'ascii' tokenizer only splits the app's space-separated
-- terms. secure-delete removes deleted terms from the index pages instead of leaving them until a merge.
CREATE VIRTUAL TABLE "SearchFts" USING fts5(owner, body, content='', contentless_delete=1, tokenize='ascii');
INSERT INTO "SearchFts"("SearchFts", rank) VALUES ('secure-delete', 1);

-- A SearchDoc row leaves with its message, its conversation or its user (foreign-key cascades fire this trigger),
-- in the same transaction.
CREATE TRIGGER "SearchDoc_delete_terms" AFTER DELETE ON "SearchDoc" BEGIN
  DELETE FROM "SearchFts" WHERE rowid = old."id";
END;
