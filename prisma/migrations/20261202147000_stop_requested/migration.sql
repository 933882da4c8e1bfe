-- AlterTable
ALTER TABLE "ChatMessage" ADD COLUMN "stopRequestedAt" DATETIME;
