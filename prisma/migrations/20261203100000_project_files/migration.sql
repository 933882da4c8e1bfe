-- CreateTable
CREATE TABLE "ProjectFile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "chunkCount" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProjectFile_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProjectFileChunk" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "fileId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "terms" tsvector,
    CONSTRAINT "ProjectFileChunk_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "ProjectFile" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ProjectFile_projectId_createdAt_idx" ON "ProjectFile"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectFileChunk_fileId_position_key" ON "ProjectFileChunk"("fileId", "position");

-- Raw SQL below: Prisma does not model it (scripts/lib/migrate.ts keeps its diff away from these objects).
-- The terms of each chunk, written by the app with the search index's tokenizer (lib/search/terms.ts): `proj` holds
-- one token per project ('p' and the hex of its id) so recall intersects the project's postings with the
-- question's; `body` the chunk's terms. Contentless, like SearchFts (docs/decisions/017-search.md).
CREATE VIRTUAL TABLE "ProjectChunkFts" USING fts5(proj, body, content='', contentless_delete=1, tokenize='ascii');
INSERT INTO "ProjectChunkFts"("ProjectChunkFts", rank) VALUES ('secure-delete', 1);

-- A chunk leaves with its file, its project or its user (foreign-key cascades fire this trigger), in the same
-- transaction.
CREATE TRIGGER "ProjectFileChunk_delete_terms" AFTER DELETE ON "ProjectFileChunk" BEGIN
  DELETE FROM "ProjectChunkFts" WHERE rowid = old."id";
END;
