import { includeSupersededParam, statusParam } from "@/lib/api/memory-schemas";
import { extractedFacts } from "@/lib/chat/extraction-job";
import { decodeCursor, encodeCursor } from "@/lib/db/cursor";
import { listFactsByUserId } from "@/lib/db/memories";
import { route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

/**
 * The caller's long-term facts, most recently changed first → `{ memories, nextCursor }`. Active ones only;
 * `?status=suggested` the suggestions waiting for review; `?include=superseded` adds the replaced ones, each with
 * `supersededById`. `?messageId=` the facts extraction found in that message of the caller's (both statuses unless
 * `status` says), once its extraction is done: what the chips under an answer show.
 */
export const GET = route("user", async ({ req, user }) => {
  const url = new URL(req.url);
  const status = statusParam(url);
  const messageId = url.searchParams.get("messageId");
  if (messageId) {
    const memories = await extractedFacts({ userId: user.id, messageId, status });
    return Response.json({ memories, nextCursor: null });
  }
  const limit = intParam(url, "limit", { min: 1, max: 100, fallback: 50 }) ?? 50;
  const { facts, nextCursor } = await listFactsByUserId({
    userId: user.id,
    cursor: decodeCursor(url.searchParams.get("cursor")),
    limit,
    includeSuperseded: includeSupersededParam(url),
    status: status ?? "active",
  });
  return Response.json({ memories: facts, nextCursor: encodeCursor(nextCursor) });
});
