-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN "model" TEXT;

-- CreateTable
CREATE TABLE "LlmModel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "baseUrl" TEXT,
    "apiKeySealed" TEXT,
    "modelId" TEXT NOT NULL,
    "contextTokens" INTEGER NOT NULL DEFAULT 128000,
    "vision" BOOLEAN NOT NULL DEFAULT false,
    "tools" BOOLEAN NOT NULL DEFAULT true,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "LlmModel_name_key" ON "LlmModel"("name");
