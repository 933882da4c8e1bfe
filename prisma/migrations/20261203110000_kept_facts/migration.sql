-- A fact kept when its conversation is deleted loses its source (decision 038): SQLite rebuilds the table to drop
-- the NOT NULLs.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_MemoryFact" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "subject" TEXT,
    "sourceSessionId" TEXT,
    "sourceMessageId" TEXT,
    "supersededById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME,
    "status" TEXT NOT NULL DEFAULT 'active',
    "extracted" BOOLEAN NOT NULL DEFAULT false,
    "projectId" TEXT,
    CONSTRAINT "MemoryFact_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "MemoryFact_sourceSessionId_fkey" FOREIGN KEY ("sourceSessionId") REFERENCES "ChatSession" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "MemoryFact_sourceMessageId_fkey" FOREIGN KEY ("sourceMessageId") REFERENCES "ChatMessage" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "MemoryFact_supersededById_fkey" FOREIGN KEY ("supersededById") REFERENCES "MemoryFact" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "MemoryFact_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_MemoryFact" ("id", "userId", "text", "subject", "sourceSessionId", "sourceMessageId", "supersededById", "createdAt", "updatedAt", "expiresAt", "status", "extracted", "projectId")
SELECT "id", "userId", "text", "subject", "sourceSessionId", "sourceMessageId", "supersededById", "createdAt", "updatedAt", "expiresAt", "status", "extracted", "projectId" FROM "MemoryFact";
DROP TABLE "MemoryFact";
ALTER TABLE "new_MemoryFact" RENAME TO "MemoryFact";
CREATE INDEX "MemoryFact_userId_supersededById_updatedAt_idx" ON "MemoryFact"("userId", "supersededById", "updatedAt");
CREATE INDEX "MemoryFact_userId_status_supersededById_updatedAt_idx" ON "MemoryFact"("userId", "status", "supersededById", "updatedAt");
CREATE INDEX "MemoryFact_sourceSessionId_idx" ON "MemoryFact"("sourceSessionId");
CREATE INDEX "MemoryFact_sourceMessageId_idx" ON "MemoryFact"("sourceMessageId");
CREATE INDEX "MemoryFact_projectId_idx" ON "MemoryFact"("projectId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
