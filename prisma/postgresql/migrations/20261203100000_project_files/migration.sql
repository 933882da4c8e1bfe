-- CreateTable
CREATE TABLE "ProjectFile" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "chunkCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProjectFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProjectFileChunk" (
    "id" SERIAL NOT NULL,
    "fileId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "terms" tsvector,

    CONSTRAINT "ProjectFileChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProjectFile_projectId_createdAt_idx" ON "ProjectFile"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectFileChunk_fileId_position_key" ON "ProjectFileChunk"("fileId", "position");

-- AddForeignKey
ALTER TABLE "ProjectFile" ADD CONSTRAINT "ProjectFile_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProjectFileChunk" ADD CONSTRAINT "ProjectFileChunk_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "ProjectFile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Raw SQL: Prisma cannot declare a GIN index in the shared schema (scripts/lib/migrate.ts keeps its diff away from
-- ProjectFileChunk). `terms` is written by the app (lib/search): the chunk's terms with positions plus one
-- '@p<hex of the project id>' lexeme, so recall intersects the project's postings with the question's.
CREATE INDEX "ProjectFileChunk_terms_idx" ON "ProjectFileChunk" USING GIN ("terms");
