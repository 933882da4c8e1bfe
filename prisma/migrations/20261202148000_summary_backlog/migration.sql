-- CreateTable
CREATE TABLE "SummaryBacklog" (
    "sessionId" TEXT NOT NULL PRIMARY KEY,
    "startSeq" INTEGER NOT NULL,
    "fromSeq" INTEGER NOT NULL DEFAULT 0,
    "throughSeq" INTEGER NOT NULL DEFAULT 0,
    "throughId" TEXT,
    "messages" INTEGER NOT NULL DEFAULT 0,
    "text" TEXT NOT NULL DEFAULT '',
    "leaseId" TEXT,
    "leaseUntil" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "SummaryBacklog_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "ChatSession" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
