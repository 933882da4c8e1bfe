-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN "importedAt" TIMESTAMP(3);
