-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN     "memorySettings" JSONB,
ADD COLUMN     "memoryStartSeq" INTEGER NOT NULL DEFAULT 0;
