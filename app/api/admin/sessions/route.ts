import { searchParam } from "@/lib/admin/schemas";
import { listSessionsForAdmin } from "@/lib/db/admin";
import { decodeCursor, encodeCursor } from "@/lib/db/cursor";
import { route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

/** Every user's sessions, most recently active first; `q` matches title or owner email. */
export const GET = route("admin", async ({ req }) => {
  const url = new URL(req.url);
  const { sessions, nextCursor } = await listSessionsForAdmin({
    q: searchParam(url),
    cursor: decodeCursor(url.searchParams.get("cursor")),
    limit: intParam(url, "limit", { min: 1, max: 100, fallback: 50 }) ?? 50,
  });
  return Response.json({ sessions, nextCursor: encodeCursor(nextCursor) });
});
