-- AlterTable
ALTER TABLE "ChatMessage" ADD COLUMN "parentId" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ChatSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "leaseId" TEXT,
    "leaseUntil" DATETIME,
    "memorySettings" JSONB,
    "memoryStartSeq" INTEGER NOT NULL DEFAULT 0,
    "activeLeafId" TEXT,
    "activeLeafSeq" INTEGER NOT NULL DEFAULT 0,
    "titleByUser" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "ChatSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ChatSession" ("createdAt", "id", "lastSeq", "leaseId", "leaseUntil", "memorySettings", "memoryStartSeq", "title", "updatedAt", "userId") SELECT "createdAt", "id", "lastSeq", "leaseId", "leaseUntil", "memorySettings", "memoryStartSeq", "title", "updatedAt", "userId" FROM "ChatSession";
DROP TABLE "ChatSession";
ALTER TABLE "new_ChatSession" RENAME TO "ChatSession";
CREATE INDEX "ChatSession_userId_updatedAt_idx" ON "ChatSession"("userId", "updatedAt");
CREATE INDEX "ChatSession_updatedAt_id_idx" ON "ChatSession"("updatedAt", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ChatMessage_sessionId_parentId_seq_idx" ON "ChatMessage"("sessionId", "parentId", "seq");

-- Existing conversations are linear: each message's parent is the one before it, the active leaf the last one.
UPDATE "ChatMessage" SET "parentId" = (
  SELECT p."id" FROM "ChatMessage" AS p
  WHERE p."sessionId" = "ChatMessage"."sessionId" AND p."seq" < "ChatMessage"."seq"
  ORDER BY p."seq" DESC LIMIT 1
);
UPDATE "ChatSession" SET
  "activeLeafId" = (SELECT m."id" FROM "ChatMessage" AS m WHERE m."sessionId" = "ChatSession"."id" ORDER BY m."seq" DESC LIMIT 1),
  "activeLeafSeq" = COALESCE((SELECT MAX(m."seq") FROM "ChatMessage" AS m WHERE m."sessionId" = "ChatSession"."id"), 0);
