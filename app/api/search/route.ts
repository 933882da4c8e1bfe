import { z } from "zod";
import { SEARCH_MAX_QUERY_LENGTH, searchMessagesForUser } from "@/lib/db/search";
import { route } from "@/lib/http";
import { NEXT_CURSOR_HEADER } from "@/lib/http-query";

const searchParamsSchema = z.object({
  q: z
    .string({ error: "Type something to search for." })
    .trim()
    .min(1, "Type something to search for.")
    .max(SEARCH_MAX_QUERY_LENGTH, `A search is at most ${SEARCH_MAX_QUERY_LENGTH} characters.`),
  cursor: z.string().max(200).optional(),
});

/**
 * GET /api/search?q=&cursor= → [{ sessionId, messageId, title, snippet, createdAt }], ranked; the next page's cursor
 * is the `X-Next-Cursor` header (absent on the last page).
 */
export const GET = route("user", async ({ req, user }) => {
  const url = new URL(req.url);
  const { q, cursor } = searchParamsSchema.parse({
    q: url.searchParams.get("q") ?? undefined,
    cursor: url.searchParams.get("cursor") || undefined,
  });
  const page = await searchMessagesForUser({ userId: user.id, q, cursor });
  const headers: Record<string, string> = { "cache-control": "private, no-store" };
  if (page.nextCursor) headers[NEXT_CURSOR_HEADER] = page.nextCursor;
  return Response.json(page.results, { headers });
});
