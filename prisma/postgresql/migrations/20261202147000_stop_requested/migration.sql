-- AlterTable
ALTER TABLE "ChatMessage" ADD COLUMN "stopRequestedAt" TIMESTAMP(3);
