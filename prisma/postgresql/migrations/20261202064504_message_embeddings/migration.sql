-- CreateTable
CREATE TABLE "MessageEmbedding" (
    "messageId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dims" INTEGER NOT NULL,
    "vector" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MessageEmbedding_pkey" PRIMARY KEY ("messageId")
);

-- CreateIndex
CREATE INDEX "MessageEmbedding_sessionId_idx" ON "MessageEmbedding"("sessionId");

-- CreateIndex
CREATE INDEX "MessageEmbedding_userId_idx" ON "MessageEmbedding"("userId");

-- AddForeignKey
ALTER TABLE "MessageEmbedding" ADD CONSTRAINT "MessageEmbedding_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "ChatMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
