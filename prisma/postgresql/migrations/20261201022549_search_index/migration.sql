-- CreateTable
CREATE TABLE "SearchDoc" (
    "id" SERIAL NOT NULL,
    "messageId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "terms" tsvector,

    CONSTRAINT "SearchDoc_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SearchDoc_messageId_key" ON "SearchDoc"("messageId");

-- AddForeignKey
ALTER TABLE "SearchDoc" ADD CONSTRAINT "SearchDoc_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "ChatMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Raw SQL: Prisma cannot declare a GIN index in the shared schema (scripts/lib/migrate.ts keeps its diff away from
-- it). `terms` is written by the app (lib/search): the message's terms with positions plus one '@<userId>' lexeme,
-- so a search intersects the user's postings with the query's instead of filtering everyone's matches.
CREATE INDEX "SearchDoc_terms_idx" ON "SearchDoc" USING GIN ("terms");
