import { searchParam } from "@/lib/admin/schemas";
import { listUsersForAdmin } from "@/lib/db/admin-users";
import { decodeKeyCursor } from "@/lib/db/cursor";
import { route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

/** Users by email with session and message counts; `q` matches email or name. */
export const GET = route("admin", async ({ req }) => {
  const url = new URL(req.url);
  const page = await listUsersForAdmin({
    q: searchParam(url),
    afterEmail: decodeKeyCursor(url.searchParams.get("cursor")),
    limit: intParam(url, "limit", { min: 1, max: 100, fallback: 50 }) ?? 50,
  });
  return Response.json(page);
});
