"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

export interface InviteRow {
  id: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  createdBy: string | null;
}

function status(i: InviteRow): string {
  if (i.usedAt) return `used ${new Date(i.usedAt).toLocaleString()}`;
  if (new Date(i.expiresAt) < new Date()) return "expired";
  return `valid until ${new Date(i.expiresAt).toLocaleString()}`;
}

export function InvitesPanel({ initial }: { initial: InviteRow[] }) {
  const [rows, setRows] = useState(initial);
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function create() {
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/admin/invites", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ validDays: 7 }),
      });
      const data = (await res.json().catch(() => null)) as {
        code?: string;
        invite?: {
          id: string;
          createdAt: string;
          expiresAt: string;
          usedAt: string | null;
          createdBy: string | null;
        };
        error?: { message?: string };
      } | null;
      if (!res.ok || !data?.code || !data.invite) {
        setError(data?.error?.message ?? "Could not create an invite. Try again.");
        return;
      }
      setCode(data.code);
      setRows((r) => [data.invite as InviteRow, ...r]);
    } catch {
      setError("Could not reach the server. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3">
        <Button onClick={() => void create()} disabled={pending} data-testid="create-invite">
          {pending ? "Creating…" : "New invite code (7 days)"}
        </Button>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      {code && (
        <p className="rounded-md border border-zinc-300 bg-zinc-50 p-3 text-sm">
          New code (shown once):{" "}
          <code className="font-mono font-semibold" data-testid="invite-code">
            {code}
          </code>
        </p>
      )}
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-zinc-500">
            <tr>
              <th className="py-1 font-medium">Created</th>
              <th className="py-1 font-medium">By</th>
              <th className="py-1 font-medium">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => (
              <tr key={i.id} className="border-t border-zinc-200">
                <td className="py-1">{new Date(i.createdAt).toLocaleString()}</td>
                <td className="py-1">{i.createdBy ?? "—"}</td>
                <td className="py-1">{status(i)}</td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={3} className="py-2 text-zinc-500">
                  No invite codes yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
