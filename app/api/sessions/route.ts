import { createSessionSchema } from "@/lib/chat/schemas";
import { decodeCursor, encodeCursor } from "@/lib/db/cursor";
import { createSession, listSessionsByUserId } from "@/lib/db/sessions";
import { readJson, route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

export const GET = route("user", async ({ req, user }) => {
  const url = new URL(req.url);
  const limit = intParam(url, "limit", { min: 1, max: 100, fallback: 50 }) ?? 50;
  const { sessions, nextCursor } = await listSessionsByUserId({
    userId: user.id,
    cursor: decodeCursor(url.searchParams.get("cursor")),
    limit,
  });
  return Response.json({ sessions, nextCursor: encodeCursor(nextCursor) });
});

export const POST = route("user", async ({ req, user }) => {
  const { title, temporary } = await readJson(req, createSessionSchema);
  const session = await createSession({ userId: user.id, title: title || "New chat", temporary });
  return Response.json({ session }, { status: 201 });
});
