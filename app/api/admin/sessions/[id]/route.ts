import { getSessionReview } from "@/lib/admin/session-review";
import { deleteSessionForAdmin } from "@/lib/db/admin";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

type Params = { id: string };

/**
 * One page of history, every branch (newest first; `?before=<seq>` pages back) beside the memory snapshot.
 * `?pathFrom=` is the previous page's `pathNext`: where the active path continues (empty: it ended above), so a page
 * walks only its own part of the path (lib/db/admin-review.ts).
 */
export const GET = route<Params, "admin">("admin", async ({ req, params }) => {
  const url = new URL(req.url);
  const pathFrom = url.searchParams.get("pathFrom");
  if (pathFrom !== null && pathFrom.length > 64)
    throw new AppError("bad_request", "pathFrom is not a message id.");
  const review = await getSessionReview({
    sessionId: params.id,
    beforeSeq: intParam(url, "before", { min: 1, max: Number.MAX_SAFE_INTEGER }),
    limit: intParam(url, "limit", { min: 1, max: 500, fallback: 100 }) ?? 100,
    pathFrom: pathFrom === null ? undefined : pathFrom || null,
  });
  return Response.json(review);
});

export const DELETE = route<Params, "admin">("admin", async ({ params, user }) => {
  const receipt = await deleteSessionForAdmin({ sessionId: params.id, actorId: user.id });
  return Response.json({ receipt });
});
