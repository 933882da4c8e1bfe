-- AlterTable
ALTER TABLE "TurnContext" ADD COLUMN     "tools" JSONB;
