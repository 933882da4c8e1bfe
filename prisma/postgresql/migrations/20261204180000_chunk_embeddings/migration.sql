-- CreateTable
CREATE TABLE "ProjectChunkEmbedding" (
    "chunkId" INTEGER NOT NULL,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dims" INTEGER NOT NULL,
    "vector" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProjectChunkEmbedding_pkey" PRIMARY KEY ("chunkId")
);

-- CreateIndex
CREATE INDEX "ProjectChunkEmbedding_projectId_idx" ON "ProjectChunkEmbedding"("projectId");

-- AddForeignKey
ALTER TABLE "ProjectChunkEmbedding" ADD CONSTRAINT "ProjectChunkEmbedding_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "ProjectFileChunk"("id") ON DELETE CASCADE ON UPDATE CASCADE;
