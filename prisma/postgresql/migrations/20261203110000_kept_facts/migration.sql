-- A fact kept when its conversation is deleted loses its source (decision 038).
ALTER TABLE "MemoryFact" ALTER COLUMN "sourceSessionId" DROP NOT NULL;
ALTER TABLE "MemoryFact" ALTER COLUMN "sourceMessageId" DROP NOT NULL;
