import { createSessionSchema } from "@/lib/chat/schemas";
import { decodeSessionListCursor, encodeSessionListCursor } from "@/lib/db/cursor";
import { createSession, listSessionsByUserId } from "@/lib/db/sessions";
import { readJson, route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

/**
 * The user's conversations, pinned first, then newest first (`cursor` from `nextCursor`). Archived ones are left out
 * unless `archived=true`, which lists only them; `projectId=<id>` lists one project's, `projectId=none` those outside
 * any project (absent: all).
 */
export const GET = route("user", async ({ req, user }) => {
  const url = new URL(req.url);
  const limit = intParam(url, "limit", { min: 1, max: 100, fallback: 50 }) ?? 50;
  const project = url.searchParams.get("projectId");
  const { sessions, nextCursor } = await listSessionsByUserId({
    userId: user.id,
    cursor: decodeSessionListCursor(url.searchParams.get("cursor")),
    limit,
    archived: url.searchParams.get("archived") === "true",
    ...(project ? { projectId: project === "none" ? null : project } : {}),
  });
  return Response.json({ sessions, nextCursor: encodeSessionListCursor(nextCursor) });
});

/** `{ title?, temporary?, projectId? }` → 201 `{ session }`; a project that is not the user's is a 404. */
export const POST = route("user", async ({ req, user }) => {
  const { title, temporary, projectId } = await readJson(req, createSessionSchema);
  const session = await createSession({ userId: user.id, title: title || "New chat", temporary, projectId });
  return Response.json({ session }, { status: 201 });
});
