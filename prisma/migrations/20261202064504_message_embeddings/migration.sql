-- CreateTable
CREATE TABLE "MessageEmbedding" (
    "messageId" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dims" INTEGER NOT NULL,
    "vector" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "MessageEmbedding_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "ChatMessage" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "MessageEmbedding_sessionId_idx" ON "MessageEmbedding"("sessionId");

-- CreateIndex
CREATE INDEX "MessageEmbedding_userId_idx" ON "MessageEmbedding"("userId");
