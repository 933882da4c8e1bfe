import { listAuditEntries } from "@/lib/db/admin-audit";
import { decodeCursor, encodeCursor } from "@/lib/db/cursor";
import { route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

/** The audit log, newest first (ids and counts only). */
export const GET = route("admin", async ({ req }) => {
  const url = new URL(req.url);
  const { entries, nextCursor } = await listAuditEntries({
    cursor: decodeCursor(url.searchParams.get("cursor")),
    limit: intParam(url, "limit", { min: 1, max: 200, fallback: 50 }) ?? 50,
  });
  return Response.json({ entries, nextCursor: encodeCursor(nextCursor) });
});
