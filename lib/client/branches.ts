import type { ChatMessageView, ConversationPage, Siblings } from "./types";

// The message tree on the client: the list always holds one path — the branch the user is on — from
// its oldest loaded message to its leaf. Editing a question or regenerating an answer cuts the path at that point
// and streams the new turn onto it; switching versions replaces the path from the switched message down. Pure
// helpers, so the rules are tested without a browser.

/** The id of the version `delta` steps from this one (-1: previous, +1: next), or null at either end. */
export function versionId(siblings: Siblings | undefined, delta: -1 | 1): string | null {
  if (!siblings) return null;
  return siblings.ids[siblings.index + delta] ?? null;
}

/** Whether a message (or folded answer) has other versions to switch between. */
export const hasVersions = (siblings: Siblings | undefined): siblings is Siblings =>
  siblings !== undefined && siblings.count > 1;

/**
 * The path a new page continues: the messages this view has loaded above the page's first one, then the page.
 * A new page (after a switch, an edit or a regenerate) shares its start with the old path wherever it begins below
 * the loaded top; when its first message is not loaded here at all, the page alone is the path.
 */
export function joinPath(
  local: readonly ChatMessageView[],
  localHasMore: boolean,
  page: Pick<ConversationPage, "messages" | "hasMore">,
): { messages: ChatMessageView[]; hasMore: boolean } {
  const first = page.messages[0];
  const at = first ? local.findIndex((m) => m.id === first.id) : -1;
  if (at < 0) return { messages: [...page.messages], hasMore: page.hasMore };
  return { messages: [...local.slice(0, at), ...page.messages], hasMore: localHasMore };
}

/** The path above `id` (the messages before it), for a new version of that message; null when it is not shown. */
export function pathAbove(messages: readonly ChatMessageView[], id: string): ChatMessageView[] | null {
  const at = messages.findIndex((m) => m.id === id);
  return at < 0 ? null : messages.slice(0, at);
}

/**
 * The path through the question that `answerId` answers (its nearest user message above it): what stays when the
 * answer is regenerated — its tool steps and the answer go. Null when the answer or its question is not shown.
 */
export function pathThroughQuestion(
  messages: readonly ChatMessageView[],
  answerId: string,
): ChatMessageView[] | null {
  const at = messages.findIndex((m) => m.id === answerId);
  for (let i = at; i >= 0; i--) if (messages[i]?.role === "user") return messages.slice(0, i + 1);
  return null;
}

/**
 * The parent a new version of the question `message` takes: its own parent (null for the first question). When
 * the server has not said (a message shown before its page was read again), the message before it on the path;
 * undefined when that is not known either (the first loaded message of a longer conversation).
 */
export function parentForEdit(
  messages: readonly ChatMessageView[],
  message: ChatMessageView,
  hasMore: boolean,
): string | null | undefined {
  if (message.parentId !== undefined) return message.parentId;
  const at = messages.findIndex((m) => m.id === message.id);
  if (at > 0) return messages[at - 1]?.id;
  return at === 0 && !hasMore ? null : undefined;
}

/** A stable name for one set of versions (its oldest), so focus can find the switcher again after a switch. */
export const versionsKey = (siblings: Siblings): string => siblings.ids[0] ?? "";
