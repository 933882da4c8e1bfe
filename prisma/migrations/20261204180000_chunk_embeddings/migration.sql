-- CreateTable
CREATE TABLE "ProjectChunkEmbedding" (
    "chunkId" INTEGER NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dims" INTEGER NOT NULL,
    "vector" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProjectChunkEmbedding_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "ProjectFileChunk" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ProjectChunkEmbedding_projectId_idx" ON "ProjectChunkEmbedding"("projectId");
