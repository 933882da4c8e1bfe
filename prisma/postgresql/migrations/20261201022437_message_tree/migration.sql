-- AlterTable
ALTER TABLE "ChatMessage" ADD COLUMN     "parentId" TEXT;

-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN     "activeLeafId" TEXT,
ADD COLUMN     "activeLeafSeq" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "titleByUser" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "ChatMessage_sessionId_parentId_seq_idx" ON "ChatMessage"("sessionId", "parentId", "seq");

-- Existing conversations are linear: each message's parent is the one before it, the active leaf the last one.
UPDATE "ChatMessage" AS m SET "parentId" = (
  SELECT p."id" FROM "ChatMessage" AS p
  WHERE p."sessionId" = m."sessionId" AND p."seq" < m."seq"
  ORDER BY p."seq" DESC LIMIT 1
);
UPDATE "ChatSession" AS s SET
  "activeLeafId" = (SELECT m."id" FROM "ChatMessage" AS m WHERE m."sessionId" = s."id" ORDER BY m."seq" DESC LIMIT 1),
  "activeLeafSeq" = COALESCE((SELECT MAX(m."seq") FROM "ChatMessage" AS m WHERE m."sessionId" = s."id"), 0);
