-- AlterTable
ALTER TABLE "User" ADD COLUMN "memoryExtraction" TEXT;

-- AlterTable
ALTER TABLE "MemoryFact" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'active';
ALTER TABLE "MemoryFact" ADD COLUMN "extracted" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "MemoryFact_userId_status_supersededById_updatedAt_idx" ON "MemoryFact"("userId", "status", "supersededById", "updatedAt");
