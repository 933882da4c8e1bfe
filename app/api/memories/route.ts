import { includeSupersededParam } from "@/lib/api/memory-schemas";
import { decodeCursor, encodeCursor } from "@/lib/db/cursor";
import { listFactsByUserId } from "@/lib/db/memories";
import { route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

/**
 * The caller's long-term facts, most recently changed first → `{ memories, nextCursor }`. Active ones only;
 * `?include=superseded` adds the replaced ones, each with `supersededById`.
 */
export const GET = route("user", async ({ req, user }) => {
  const url = new URL(req.url);
  const limit = intParam(url, "limit", { min: 1, max: 100, fallback: 50 }) ?? 50;
  const { facts, nextCursor } = await listFactsByUserId({
    userId: user.id,
    cursor: decodeCursor(url.searchParams.get("cursor")),
    limit,
    includeSuperseded: includeSupersededParam(url),
  });
  return Response.json({ memories: facts, nextCursor: encodeCursor(nextCursor) });
});
