"use client";

import Link from "next/link";
import { useId, useRef, useState } from "react";
import { useFileSize } from "@/components/attachments/use-file-size";
import { useRevalidateSessions } from "@/components/chat/use-sessions";
import { Button } from "@/components/ui/button";
import { UNREACHABLE } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

// Settings → Your data: POST /api/import with an export file, showing the upload's progress, then what was
// imported (with links to the new conversations) or why nothing was.

interface ImportResult {
  conversations: { id: string; title: string; messages: number }[];
  counts: {
    conversations: number;
    messages: number;
    attachments: number;
    attachmentsMissing: number;
    facts: number;
  };
}

interface ImportFailure {
  status: number;
  code?: string;
  message: string;
  problems: { path: string; message: string }[];
}

type State =
  | { phase: "idle" }
  | { phase: "uploading"; percent: number }
  | { phase: "processing" }
  | { phase: "done"; result: ImportResult }
  | { phase: "failed"; failure: ImportFailure };

/** The upload through XMLHttpRequest: fetch cannot report how much of a request body has been sent. */
function upload(file: File, onProgress: (percent: number) => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/import");
    xhr.setRequestHeader("content-type", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject({ status: 0, message: UNREACHABLE, problems: [] } satisfies ImportFailure);
    xhr.onload = () => {
      let body: {
        imported?: ImportResult;
        error?: { code?: string; message?: string; details?: unknown };
      } | null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body?.imported) return resolve(body.imported);
      const details = body?.error?.details;
      reject({
        status: xhr.status,
        code: body?.error?.code,
        message: body?.error?.message ?? `Request failed (${xhr.status}).`,
        problems: Array.isArray(details) ? (details as ImportFailure["problems"]) : [],
      } satisfies ImportFailure);
    };
    xhr.send(file);
  });
}

export function DataImport({ maxBytes }: { maxBytes: number }) {
  const t = useT("data");
  const errorText = useErrorText();
  const size = useFileSize();
  const revalidateSessions = useRevalidateSessions();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<State>({ phase: "idle" });
  const busy = state.phase === "uploading" || state.phase === "processing";

  async function start(e: React.FormEvent) {
    e.preventDefault();
    if (!file || busy) return;
    if (file.size > maxBytes) {
      setState({
        phase: "failed",
        failure: {
          status: 413,
          code: "payload_too_large",
          message: t("import.tooLarge", { size: size(file.size), limit: size(maxBytes) }),
          problems: [],
        },
      });
      return;
    }
    setState({ phase: "uploading", percent: 0 });
    try {
      const result = await upload(file, (percent) =>
        setState(percent >= 100 ? { phase: "processing" } : { phase: "uploading", percent }),
      );
      setState({ phase: "done", result });
      setFile(null);
      if (inputRef.current) inputRef.current.value = "";
      revalidateSessions();
    } catch (err) {
      setState({ phase: "failed", failure: err as ImportFailure });
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-zinc-200 p-4">
      <h2 id={`${id}-title`} className="font-semibold">
        {t("import.heading")}
      </h2>
      <p className="text-sm text-zinc-600">{t("import.body", { limit: size(maxBytes) })}</p>
      <form onSubmit={start} className="flex flex-wrap items-end gap-3">
        <label htmlFor={`${id}-file`} className="block text-sm font-medium text-zinc-700">
          {t("import.choose")}
          <input
            ref={inputRef}
            id={`${id}-file`}
            type="file"
            accept="application/json,.json"
            disabled={busy}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setState({ phase: "idle" });
            }}
            className="mt-1 block text-sm"
            data-testid="import-file"
          />
        </label>
        <Button type="submit" disabled={!file || busy} data-testid="import-start">
          {t("import.start")}
        </Button>
      </form>

      <div aria-live="polite" className="text-sm">
        {state.phase === "uploading" && (
          <div data-testid="import-progress">
            <progress
              max={100}
              value={state.percent}
              className="w-full"
              aria-label={t("import.uploading", { percent: state.percent })}
            />
            <p>{t("import.uploading", { percent: state.percent })}</p>
          </div>
        )}
        {state.phase === "processing" && <p data-testid="import-progress">{t("import.processing")}</p>}
        {state.phase === "done" && <Imported result={state.result} />}
        {state.phase === "failed" && (
          <div
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800"
            data-testid="import-error"
          >
            <p className="font-medium">{t("import.failed")}</p>
            <p>{errorText(state.failure)}</p>
            {state.failure.problems.length > 0 && (
              <>
                <p className="mt-2">{t("import.problems")}</p>
                <ul className="list-disc pl-5 font-mono text-xs">
                  {state.failure.problems.map((p) => (
                    <li key={`${p.path}:${p.message}`}>
                      {p.path ? `${p.path}: ` : ""}
                      {p.message}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

function Imported({ result }: { result: ImportResult }) {
  const t = useT("data");
  const { counts } = result;
  return (
    <div
      role="status"
      className="space-y-2 rounded-md border border-green-200 bg-green-50 p-3 text-green-900"
      data-testid="import-done"
    >
      <p className="font-medium">
        {t("import.done", { conversations: counts.conversations, messages: counts.messages })}
      </p>
      <p>{t("import.extra", { attachments: counts.attachments, facts: counts.facts })}</p>
      {counts.attachmentsMissing > 0 && <p>{t("import.missing", { count: counts.attachmentsMissing })}</p>}
      <ul className="list-disc pl-5">
        {result.conversations.map((c) => (
          <li key={c.id}>
            <Link href={`/c/${c.id}`} className="underline" data-testid="imported-conversation">
              {c.title}
            </Link>{" "}
            <span className="text-green-800">· {t("import.messages", { count: c.messages })}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
