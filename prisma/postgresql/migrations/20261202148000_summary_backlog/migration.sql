-- CreateTable
CREATE TABLE "SummaryBacklog" (
    "sessionId" TEXT NOT NULL,
    "startSeq" INTEGER NOT NULL,
    "fromSeq" INTEGER NOT NULL DEFAULT 0,
    "throughSeq" INTEGER NOT NULL DEFAULT 0,
    "throughId" TEXT,
    "messages" INTEGER NOT NULL DEFAULT 0,
    "text" TEXT NOT NULL DEFAULT '',
    "leaseId" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SummaryBacklog_pkey" PRIMARY KEY ("sessionId")
);

-- AddForeignKey
ALTER TABLE "SummaryBacklog" ADD CONSTRAINT "SummaryBacklog_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
