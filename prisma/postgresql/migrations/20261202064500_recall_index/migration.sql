-- AlterTable
ALTER TABLE "ChatSession" ADD COLUMN "forks" INTEGER NOT NULL DEFAULT 0;

-- Raw SQL below: Prisma does not model it.
-- How many times a message was added beside an existing one (an edit or a regenerated answer made a branch). Zero
-- means the conversation is one path, so recall tells whether a message is on the question's path by its seq alone
-- and only walks parent links in branched conversations. Kept by this trigger, whatever code writes the messages;
-- it never goes down (messages leave only with their conversation), and counting too much only costs a walk.
UPDATE "ChatSession" s SET "forks" = f.n
FROM (
  SELECT "sessionId", COUNT(*) AS n FROM (
    SELECT "sessionId" FROM "ChatMessage" GROUP BY "sessionId", "parentId" HAVING COUNT(*) > 1
  ) g GROUP BY "sessionId"
) f
WHERE f."sessionId" = s."id";

CREATE FUNCTION "ChatMessage_count_fork"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."parentId" IS NOT DISTINCT FROM OLD."parentId" THEN
    RETURN NULL;
  END IF;
  IF (NEW."parentId" IS NULL AND EXISTS (
        SELECT 1 FROM "ChatMessage" c
        WHERE c."sessionId" = NEW."sessionId" AND c."parentId" IS NULL AND c."id" <> NEW."id"))
     OR (NEW."parentId" IS NOT NULL AND EXISTS (
        SELECT 1 FROM "ChatMessage" c
        WHERE c."sessionId" = NEW."sessionId" AND c."parentId" = NEW."parentId" AND c."id" <> NEW."id")) THEN
    UPDATE "ChatSession" SET "forks" = "forks" + 1 WHERE "id" = NEW."sessionId";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "ChatMessage_fork" AFTER INSERT OR UPDATE OF "parentId" ON "ChatMessage"
FOR EACH ROW EXECUTE FUNCTION "ChatMessage_count_fork"();

-- Each search document also carries its conversation's lexeme ('@c' + the hex of the conversation id), so recall
-- within one conversation intersects that conversation's postings with the question's on the GIN index.
UPDATE "SearchDoc"
SET "terms" = "terms" || array_to_tsvector(ARRAY['@c' || encode(convert_to("sessionId", 'UTF8'), 'hex')])
WHERE "terms" IS NOT NULL;
