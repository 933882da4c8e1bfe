"use client";

import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { readTurnEvents } from "@/lib/chat/sse";
import { titleFrom } from "@/lib/chat/title";
import { Composer } from "./composer";
import { MessageBubble } from "./message-bubble";
import {
  announceSessionsChanged,
  apiError,
  type ChatMessageView,
  fetchOlderMessages,
  type ModelInfo,
} from "./types";

let tempIds = 0;
const tempId = () => `temp-${++tempIds}`;

export function ChatView({
  sessionId: initialSessionId,
  initialMessages,
  initialHasMore,
  modelInfo,
}: {
  sessionId: string | null;
  initialMessages: ChatMessageView[];
  initialHasMore: boolean;
  modelInfo: ModelInfo;
}) {
  const [sessionId, setSessionId] = useState(initialSessionId);
  const [messages, setMessages] = useState(initialMessages);
  const [hasMore, setHasMore] = useState(initialHasMore);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const abortRef = useRef<AbortController | null>(null);
  const bottomRef = useRef<HTMLDivElement>(null);

  const lastText = messages.at(-1)?.text;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the last message grows
  useEffect(() => {
    bottomRef.current?.scrollIntoView({ block: "end" });
  }, [messages.length, lastText]);

  useEffect(() => () => abortRef.current?.abort(), []);

  // A new chat takes its conversation's address with history.replaceState (no navigation, so its stream is never
  // cut). Next.js then still renders this page, so "New chat" — back to `/` from that address — must clear it.
  const pathname = usePathname();
  const previousPath = useRef(pathname);
  useEffect(() => {
    const was = previousPath.current;
    previousPath.current = pathname;
    if (initialSessionId === null && pathname === "/" && was !== "/") {
      abortRef.current?.abort();
      setSessionId(null);
      setMessages([]);
      setHasMore(false);
      setError(null);
      setDraft("");
    }
  }, [pathname, initialSessionId]);

  const patch = useCallback((id: string, change: Partial<ChatMessageView>) => {
    setMessages((prev) => prev.map((m) => (m.id === id ? { ...m, ...change } : m)));
  }, []);

  /**
   * Streams one turn into the assistant message `assistantId`; ids are swapped for the server's on `meta`.
   */
  async function runTurn(id: string, body: object, assistantId: string, userTempId?: string): Promise<void> {
    const controller = new AbortController();
    abortRef.current = controller;
    setStreaming(true);
    setError(null);
    let currentAssistant = assistantId;
    let received = "";
    try {
      const res = await fetch(`/api/sessions/${id}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        const message = await apiError(res);
        // Nothing was stored: take the optimistic messages back and return the text to the composer.
        if (userTempId) {
          setMessages((prev) => prev.filter((m) => m.id !== userTempId && m.id !== assistantId));
          if ("content" in body) setDraft(String(body.content));
        } else {
          patch(assistantId, { status: "failed", error: message });
        }
        setError(message);
        return;
      }
      for await (const event of readTurnEvents(res.body)) {
        if (event.type === "meta") {
          const { userMessage, assistantMessage } = event;
          // React may run this updater later, after `currentAssistant` below has moved on: capture it now.
          const placeholder = currentAssistant;
          setMessages((prev) =>
            prev.map((m) => {
              if (userTempId && m.id === userTempId)
                return { ...m, id: userMessage.id, seq: userMessage.seq };
              if (m.id === placeholder)
                return {
                  ...m,
                  id: assistantMessage.id,
                  seq: assistantMessage.seq,
                  createdAt: assistantMessage.createdAt,
                };
              return m;
            }),
          );
          currentAssistant = assistantMessage.id;
        } else if (event.type === "delta") {
          received += event.text;
          patch(currentAssistant, { text: received });
        } else if (event.type === "done") {
          patch(currentAssistant, { status: event.status });
        } else if (event.type === "error") {
          patch(currentAssistant, { status: "failed", error: event.message });
        }
      }
    } catch (e) {
      if (controller.signal.aborted) {
        patch(currentAssistant, { status: "interrupted" });
      } else {
        patch(currentAssistant, { status: "failed", error: "The connection was lost while answering." });
        setError(e instanceof Error ? e.message : "The connection was lost.");
      }
    } finally {
      abortRef.current = null;
      setStreaming(false);
      announceSessionsChanged();
    }
  }

  async function send(content: string) {
    const text = content.trim();
    if (!text || streaming) return;
    setDraft("");
    let id = sessionId;
    if (!id) {
      const res = await fetch("/api/sessions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: titleFrom(text) }),
      }).catch(() => null);
      if (!res?.ok) {
        setError(res ? await apiError(res) : "Could not reach the server.");
        setDraft(content);
        return;
      }
      id = ((await res.json()) as { session: { id: string } }).session.id;
      setSessionId(id);
      // The address names the conversation at once, so a reload even during the first answer restores it.
      window.history.replaceState(null, "", `/c/${id}`);
      announceSessionsChanged();
    }
    const now = new Date().toISOString();
    const userId = tempId();
    const assistantId = tempId();
    const nextSeq = (messages.at(-1)?.seq ?? 0) + 1;
    setMessages((prev) => [
      ...prev,
      { id: userId, seq: nextSeq, role: "user", text, status: "complete", createdAt: now },
      { id: assistantId, seq: nextSeq + 1, role: "assistant", text: "", status: "streaming", createdAt: now },
    ]);
    await runTurn(id, { content: text }, assistantId, userId);
  }

  async function retry(messageId: string) {
    if (!sessionId || streaming) return;
    patch(messageId, { text: "", status: "streaming", error: undefined });
    await runTurn(sessionId, { retryMessageId: messageId }, messageId);
  }

  async function loadOlder() {
    const first = messages[0];
    if (!sessionId || !first) return;
    setLoadingOlder(true);
    try {
      const data = await fetchOlderMessages<ChatMessageView>(
        `/api/sessions/${sessionId}?before=${first.seq}`,
      );
      setMessages((prev) => [...data.messages, ...prev]);
      setHasMore(data.hasMore);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not load earlier messages.");
    } finally {
      setLoadingOlder(false);
    }
  }

  const last = messages.at(-1);

  // Opened while an answer was being written elsewhere (a reload mid-stream, another tab): this view is not
  // attached to that stream, so follow the stored answer until it is finished.
  const orphanedStream = !streaming && last?.status === "streaming" && !last.id.startsWith("temp-");
  useEffect(() => {
    if (!orphanedStream || !sessionId) return;
    const timer = setInterval(async () => {
      const res = await fetch(`/api/sessions/${sessionId}?limit=20`).catch(() => null);
      if (!res?.ok) return;
      const data = (await res.json()) as { messages: ChatMessageView[] };
      const bySeq = new Map(data.messages.map((m) => [m.seq, m]));
      setMessages((prev) => prev.map((m) => bySeq.get(m.seq) ?? m));
    }, 1000);
    return () => clearInterval(timer);
  }, [orphanedStream, sessionId]);
  return (
    <div className="flex h-full min-w-0 flex-1 flex-col">
      <header className="flex items-center justify-between border-b border-zinc-200 bg-white px-4 py-2 text-sm">
        <span className="text-zinc-500">
          Model: <span className="font-medium text-zinc-800">{modelInfo.model}</span>
          {modelInfo.offline && (
            <span
              className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800"
              data-testid="offline-badge"
              title="No OPENAI_API_KEY is set: answers come from Recall's built-in offline model, which only knows what the context sends it."
            >
              offline model
            </span>
          )}
        </span>
      </header>
      <div className="flex-1 overflow-y-auto" data-testid="message-list" aria-live="polite">
        <div className="mx-auto max-w-3xl space-y-4 px-4 py-6">
          {hasMore && (
            <div className="text-center">
              <Button variant="secondary" onClick={() => void loadOlder()} disabled={loadingOlder}>
                {loadingOlder ? "Loading…" : "Load earlier messages"}
              </Button>
            </div>
          )}
          {messages.length === 0 && (
            <div className="py-24 text-center text-zinc-500" data-testid="empty-state">
              <p className="text-lg font-medium text-zinc-700">Start a conversation</p>
              <p className="mt-1 text-sm">
                Recall keeps the full history, sends the model only its memory window, and shows you exactly
                what each answer saw.
              </p>
            </div>
          )}
          {messages.map((m) => (
            <MessageBubble
              key={m.id}
              message={m}
              sessionId={sessionId}
              canRetry={
                !streaming && m.id === last?.id && (m.status === "failed" || m.status === "interrupted")
              }
              onRetry={() => void retry(m.id)}
            />
          ))}
          <div ref={bottomRef} />
        </div>
      </div>
      {error && (
        <p
          role="alert"
          data-testid="chat-error"
          className="mx-auto mb-2 max-w-3xl rounded bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          {error}
        </p>
      )}
      <Composer
        value={draft}
        onChange={setDraft}
        onSend={(text) => void send(text)}
        onStop={() => abortRef.current?.abort()}
        streaming={streaming}
      />
    </div>
  );
}
