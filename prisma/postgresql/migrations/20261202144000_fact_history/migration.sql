-- AlterTable
ALTER TABLE "MemoryFact" ADD COLUMN "expiresAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "MemoryFactVersion" (
    "id" TEXT NOT NULL,
    "factId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "change" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "sourceMessageId" TEXT,
    "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MemoryFactVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MemoryFactVersion_factId_changedAt_idx" ON "MemoryFactVersion"("factId", "changedAt");

-- CreateIndex
CREATE INDEX "MemoryFactVersion_sourceMessageId_idx" ON "MemoryFactVersion"("sourceMessageId");

-- AddForeignKey
ALTER TABLE "MemoryFactVersion" ADD CONSTRAINT "MemoryFactVersion_factId_fkey" FOREIGN KEY ("factId") REFERENCES "MemoryFact"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MemoryFactVersion" ADD CONSTRAINT "MemoryFactVersion_sourceMessageId_fkey" FOREIGN KEY ("sourceMessageId") REFERENCES "ChatMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Facts stored before history existed start with one "created" version (their current text, learned from their source).
INSERT INTO "MemoryFactVersion" ("id", "factId", "text", "change", "by", "sourceMessageId", "changedAt")
SELECT 'v0' || "id", "id", "text", 'created', 'model', "sourceMessageId", "createdAt" FROM "MemoryFact";
