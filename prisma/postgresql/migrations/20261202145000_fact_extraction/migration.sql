-- CreateEnum
CREATE TYPE "FactStatus" AS ENUM ('active', 'suggested');

-- CreateEnum
CREATE TYPE "MemoryExtraction" AS ENUM ('off', 'suggest', 'auto');

-- AlterTable
ALTER TABLE "User" ADD COLUMN "memoryExtraction" "MemoryExtraction";

-- AlterTable
ALTER TABLE "MemoryFact" ADD COLUMN "status" "FactStatus" NOT NULL DEFAULT 'active',
ADD COLUMN "extracted" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "MemoryFact_userId_status_supersededById_updatedAt_idx" ON "MemoryFact"("userId", "status", "supersededById", "updatedAt");
