import { switchBranch } from "@/lib/chat/branches";
import { updateSessionSchema } from "@/lib/chat/schemas";
import { setSessionSystemPromptForUser, withSystemPrompt } from "@/lib/db/instructions";
import { organizeSessionForUser } from "@/lib/db/projects";
import {
  deleteSessionForUser,
  getActivePathPage,
  getSessionForUserOrThrow,
  getSessionWithFactCountForUserOrThrow,
  renameSessionForUser,
} from "@/lib/db/sessions";
import { readJson, route } from "@/lib/http";
import { boolParam, intParam } from "@/lib/http-query";
import { setConversationModel, withModelNames } from "@/lib/models/registry";

type Params = { id: string };

/**
 * The session and its active path, newest page first (`?before=<seq>`: the page above the message with
 * that seq; `limit` up to 500). Each message carries `parentId` and `siblings`, each answer its `model` (and
 * `modelName` when the registry knows it), `promptTokens` and `completionTokens`; the session carries
 * `factCount`, the long-term facts learned in it that a deletion removes.
 */
export const GET = route<Params>("user", async ({ req, params, user }) => {
  const url = new URL(req.url);
  const session = await getSessionWithFactCountForUserOrThrow({ sessionId: params.id, userId: user.id });
  const page = await getActivePathPage({
    sessionId: session.id,
    leafId: session.activeLeafId,
    beforeSeq: intParam(url, "before", { min: 1, max: Number.MAX_SAFE_INTEGER }),
    limit: intParam(url, "limit", { min: 1, max: 500, fallback: 200 }) ?? 200,
  });
  return Response.json({
    session: await withSystemPrompt(session, user.id),
    messages: await withModelNames(page.messages),
    hasMore: page.hasMore,
  });
});

/**
 * `{ title }` renames (the automatic title then leaves it alone); `{ activeLeafId }` switches branch; `{ model }`
 * picks the conversation's model (422 for an unknown or disabled id); `{ systemPrompt }` (at most 4 000
 * characters; null clears) is sent from the next turn on; `{ projectId (null: out), pinned, archived }` organizes it
 * (another user's project is a 404) → as GET.
 */
export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const { title, activeLeafId, model, systemPrompt, projectId, pinned, archived } = await readJson(
    req,
    updateSessionSchema,
  );
  if (projectId !== undefined || pinned !== undefined || archived !== undefined) {
    await organizeSessionForUser({ sessionId: params.id, userId: user.id, projectId, pinned, archived });
  }
  if (model !== undefined) await setConversationModel({ sessionId: params.id, userId: user.id, model });
  if (activeLeafId !== undefined) {
    await switchBranch({ sessionId: params.id, userId: user.id, messageId: activeLeafId });
  }
  if (title !== undefined) await renameSessionForUser({ sessionId: params.id, userId: user.id, title });
  if (systemPrompt !== undefined) {
    await setSessionSystemPromptForUser({ sessionId: params.id, userId: user.id, systemPrompt });
  }
  const session = await withSystemPrompt(
    await getSessionForUserOrThrow({ sessionId: params.id, userId: user.id }),
    user.id,
  );
  if (activeLeafId === undefined) return Response.json({ session });
  const page = await getActivePathPage({ sessionId: session.id, leafId: session.activeLeafId, limit: 200 });
  return Response.json({ session, messages: await withModelNames(page.messages), hasMore: page.hasMore });
});

/**
 * Deletes the conversation with everything in it → `{ receipt }`. `?keepFacts=true`: the long-term facts learned in
 * it stay, their source becoming "a deleted conversation" (the receipt's `kept`).
 */
export const DELETE = route<Params>("user", async ({ req, params, user }) => {
  const keepFacts = boolParam(new URL(req.url), "keepFacts");
  const receipt = await deleteSessionForUser({ sessionId: params.id, userId: user.id, keepFacts });
  return Response.json({ receipt });
});
