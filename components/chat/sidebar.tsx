"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useCallback, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { apiError, SESSIONS_CHANGED, type SessionSummary } from "./types";

export function Sidebar({ user }: { user: { name: string; email: string; role: "USER" | "ADMIN" } }) {
  const pathname = usePathname();
  const router = useRouter();
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<SessionSummary | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [receipt, setReceipt] = useState<Receipt | null>(null);

  const load = useCallback(async (cursor?: string) => {
    try {
      const res = await fetch(`/api/sessions${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);
      if (!res.ok) throw new Error(await apiError(res));
      const data = (await res.json()) as { sessions: SessionSummary[]; nextCursor: string | null };
      setSessions((prev) => (cursor && prev ? [...prev, ...data.sessions] : data.sessions));
      setNextCursor(data.nextCursor);
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not load conversations.");
    }
  }, []);

  useEffect(() => {
    void load();
    const onChange = () => void load();
    window.addEventListener(SESSIONS_CHANGED, onChange);
    return () => window.removeEventListener(SESSIONS_CHANGED, onChange);
  }, [load]);

  // redirect: false keeps the navigation on this host; next-auth would build it from NEXTAUTH_URL.
  async function signOutHere() {
    await signOut({ redirect: false });
    router.replace("/login");
    router.refresh();
  }

  async function rename(id: string, title: string) {
    setEditing(null);
    const res = await fetch(`/api/sessions/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title }),
    });
    if (!res.ok) setError(await apiError(res));
    await load();
  }

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleting(true);
    const res = await fetch(`/api/sessions/${toDelete.id}`, { method: "DELETE" });
    setDeleting(false);
    if (!res.ok) {
      setError(await apiError(res));
      setToDelete(null);
      return;
    }
    const data = (await res.json()) as { receipt: Receipt };
    setReceipt(data.receipt);
    const wasOpen = pathname === `/c/${toDelete.id}`;
    setToDelete(null);
    await load();
    if (wasOpen) router.push("/");
  }

  return (
    <aside
      className="flex max-h-[40vh] w-full shrink-0 flex-col border-b border-zinc-200 bg-white md:h-full md:max-h-none md:w-72 md:border-r md:border-b-0"
      data-testid="sidebar"
    >
      <div className="flex items-center justify-between p-3">
        <Link href="/" className="text-lg font-semibold">
          Recall
        </Link>
        <Link
          href="/"
          data-testid="new-chat"
          className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100"
        >
          New chat
        </Link>
      </div>
      <nav className="flex-1 overflow-y-auto px-2" aria-label="Conversations">
        {error && (
          <p role="alert" className="m-2 rounded bg-red-50 p-2 text-xs text-red-700">
            {error}
          </p>
        )}
        {sessions === null && !error && <p className="p-3 text-sm text-zinc-500">Loading conversations…</p>}
        {sessions?.length === 0 && <p className="p-3 text-sm text-zinc-500">No conversations yet.</p>}
        <ul className="space-y-0.5" data-testid="session-list">
          {sessions?.map((s) => {
            const active = pathname === `/c/${s.id}`;
            return (
              <li
                key={s.id}
                className={`group flex items-center rounded-md ${active ? "bg-zinc-200" : "hover:bg-zinc-100"}`}
              >
                {editing === s.id ? (
                  <form
                    className="flex-1 p-1"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const title = String(new FormData(e.currentTarget).get("title") ?? "").trim();
                      if (title) void rename(s.id, title);
                    }}
                  >
                    <input
                      name="title"
                      defaultValue={s.title}
                      aria-label="Conversation title"
                      maxLength={200}
                      // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
                      autoFocus
                      onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
                      onBlur={() => setEditing(null)}
                      className="w-full rounded border border-zinc-300 px-2 py-1 text-sm"
                    />
                  </form>
                ) : (
                  <>
                    <Link
                      href={`/c/${s.id}`}
                      className="flex-1 truncate px-3 py-2 text-sm"
                      aria-current={active ? "page" : undefined}
                      data-testid="session-link"
                    >
                      {s.title}
                    </Link>
                    <button
                      type="button"
                      className="hidden px-1 text-xs text-zinc-500 hover:text-zinc-900 group-focus-within:block group-hover:block"
                      onClick={() => setEditing(s.id)}
                      aria-label={`Rename ${s.title}`}
                    >
                      Rename
                    </button>
                    <button
                      type="button"
                      className="hidden px-2 text-xs text-red-600 hover:text-red-800 group-focus-within:block group-hover:block"
                      onClick={() => setToDelete(s)}
                      aria-label={`Delete ${s.title}`}
                      data-testid="delete-session"
                    >
                      Delete
                    </button>
                  </>
                )}
              </li>
            );
          })}
        </ul>
        {nextCursor && (
          <Button variant="ghost" className="my-2 w-full" onClick={() => void load(nextCursor)}>
            Show older
          </Button>
        )}
      </nav>
      {receipt && (
        <div className="m-2 rounded-md border border-zinc-200 bg-zinc-50 p-3" role="status">
          <ReceiptView receipt={receipt} />
          <Button variant="ghost" className="mt-2 w-full" onClick={() => setReceipt(null)}>
            Dismiss
          </Button>
        </div>
      )}
      <div className="border-t border-zinc-200 p-3 text-sm">
        <p className="truncate font-medium" data-testid="current-user">
          {user.name}
        </p>
        <p className="truncate text-xs text-zinc-500">{user.email}</p>
        <div className="mt-2 flex gap-2">
          {user.role === "ADMIN" && (
            <Link href="/admin" className="rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100">
              Admin
            </Link>
          )}
          <Button variant="ghost" onClick={() => void signOutHere()} data-testid="sign-out">
            Sign out
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete this conversation?"
        body={
          <>
            “{toDelete?.title}” and everything derived from it — messages, memory and recorded contexts — will
            be removed for good.
          </>
        }
        confirmLabel="Delete"
        pending={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </aside>
  );
}
