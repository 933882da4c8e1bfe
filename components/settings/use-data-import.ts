"use client";

import { useRef, useState } from "react";
import { useFileSize } from "@/components/attachments/use-file-size";
import { useRevalidateSessions } from "@/components/chat/use-sessions";
import { RequestError, upload } from "@/lib/client/api";
import { useT } from "@/lib/i18n/client";

// The import's steps: a file chosen, refused here when it is over the limit, uploaded with its progress, then
// processed by the server, and finally what was imported or why nothing was.

export interface ImportResult {
  conversations: { id: string; title: string; messages: number }[];
  counts: {
    conversations: number;
    messages: number;
    attachments: number;
    attachmentsMissing: number;
    facts: number;
    projects: number;
    projectFiles: number;
  };
}

export interface ImportFailure {
  status: number;
  code?: string;
  message: string;
  problems: { path: string; message: string }[];
}

type ImportState =
  | { phase: "idle" }
  | { phase: "uploading"; percent: number }
  | { phase: "processing" }
  | { phase: "done"; result: ImportResult }
  | { phase: "failed"; failure: ImportFailure };

function failureOf(e: unknown): ImportFailure {
  if (!(e instanceof RequestError)) return { status: 0, message: String(e), problems: [] };
  return {
    status: e.status,
    code: e.code,
    message: e.message,
    problems: Array.isArray(e.details) ? (e.details as ImportFailure["problems"]) : [],
  };
}

export function useDataImport(maxBytes: number) {
  const t = useT("data");
  const size = useFileSize();
  const revalidateSessions = useRevalidateSessions();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<ImportState>({ phase: "idle" });
  const busy = state.phase === "uploading" || state.phase === "processing";

  function choose(next: File | null) {
    setFile(next);
    setState({ phase: "idle" });
  }

  async function start() {
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
      const { imported } = await upload<{ imported: ImportResult }>("/api/import", file, {
        contentType: "application/json",
        onProgress: (fraction) => {
          const percent = Math.round(fraction * 100);
          setState(percent >= 100 ? { phase: "processing" } : { phase: "uploading", percent });
        },
      });
      setState({ phase: "done", result: imported });
      setFile(null);
      if (inputRef.current) inputRef.current.value = "";
      revalidateSessions();
    } catch (err) {
      setState({ phase: "failed", failure: failureOf(err) });
    }
  }

  return { file, state, busy, inputRef, choose, start };
}
