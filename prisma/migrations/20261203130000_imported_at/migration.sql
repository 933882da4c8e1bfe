-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN "importedAt" DATETIME;
