import { getSessionReview } from "@/lib/admin/session-review";
import { deleteSessionForAdmin } from "@/lib/db/admin";
import { route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

type Params = { id: string };

/** One page of history (newest first; `?before=<seq>` pages back) beside the memory snapshot. */
export const GET = route<Params, "admin">("admin", async ({ req, params }) => {
  const url = new URL(req.url);
  const review = await getSessionReview({
    sessionId: params.id,
    beforeSeq: intParam(url, "before", { min: 1, max: Number.MAX_SAFE_INTEGER }),
    limit: intParam(url, "limit", { min: 1, max: 500, fallback: 100 }) ?? 100,
  });
  return Response.json(review);
});

export const DELETE = route<Params, "admin">("admin", async ({ params, user }) => {
  const receipt = await deleteSessionForAdmin({ sessionId: params.id, actorId: user.id });
  return Response.json({ receipt });
});
