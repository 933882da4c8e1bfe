export type MessageStatus = "complete" | "streaming" | "interrupted" | "failed";

export interface ChatMessageView {
  id: string;
  seq: number;
  role: "system" | "user" | "assistant" | "tool";
  text: string;
  status: MessageStatus;
  createdAt: string;
  error?: string;
}

export interface SessionSummary {
  id: string;
  title: string;
  updatedAt: string;
  createdAt: string;
}

export interface ModelInfo {
  model: string;
  offline: boolean;
}

export const SESSIONS_CHANGED = "recall:sessions-changed";

export function announceSessionsChanged() {
  window.dispatchEvent(new Event(SESSIONS_CHANGED));
}

export async function apiError(res: Response): Promise<string> {
  const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return data?.error?.message ?? `Request failed (${res.status}).`;
}

/** One page of history older than the first message shown; throws with the server's message. */
export async function fetchOlderMessages<M>(url: string): Promise<{ messages: M[]; hasMore: boolean }> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(await apiError(res));
  return (await res.json()) as { messages: M[]; hasMore: boolean };
}
