-- AlterTable
ALTER TABLE "User" ADD COLUMN "aboutMe" TEXT NOT NULL DEFAULT '';
ALTER TABLE "User" ADD COLUMN "howToAnswer" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN "systemPrompt" TEXT;
