import { removeUnsentAttachment, serveAttachment } from "@/lib/attachments/serve";
import { route } from "@/lib/http";

type Params = { id: string };

export const dynamic = "force-dynamic";

/** The file, or with `?thumb=1` its thumbnail: for its owner or an admin, 404 for anyone else. */
export const GET = route<Params>("user", async ({ req, params, user }) => {
  return serveAttachment({
    id: params.id,
    user,
    thumbnail: new URL(req.url).searchParams.get("thumb") === "1",
    ifNoneMatch: req.headers.get("if-none-match"),
  });
});

/** Removes an upload that was not sent yet (the composer's remove button). */
export const DELETE = route<Params>("user", async ({ params, user }) => {
  await removeUnsentAttachment({ id: params.id, userId: user.id });
  return new Response(null, { status: 204 });
});
