"use client";

import { useRef } from "react";
import { useT } from "@/lib/i18n/client";
import type { ComposerAttachments } from "./use-composer-attachments";

// The accept list only steers the file chooser; the server judges every file by its bytes.
const ACCEPT =
  "image/png,image/jpeg,image/webp,image/gif,text/*,.txt,.md,.markdown,.csv,.json,.log,.yaml,.yml,.toml,.ini,.xml,.sql,.py,.js,.jsx,.ts,.tsx,.java,.c,.h,.cpp,.hpp,.cs,.go,.rs,.rb,.php,.swift,.kt,.sh,.css,.scss";

/** Paper clip: opens the file chooser. The hidden input also takes files from tests (`setInputFiles`). */
export function AttachButton({ files, disabled }: { files: ComposerAttachments; disabled?: boolean }) {
  const t = useT("attachments");
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => input.current?.click()}
        disabled={disabled}
        aria-label={t("attach")}
        title={t("attach")}
        data-testid="attach-button"
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg border border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-400"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path
            strokeLinecap="round"
            strokeLinejoin="round"
            d="m18.4 11.1-6.9 6.9a4.5 4.5 0 0 1-6.4-6.4l7.6-7.6a3 3 0 0 1 4.2 4.2l-7.6 7.6a1.5 1.5 0 0 1-2.1-2.1l6.9-6.9"
          />
        </svg>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        hidden
        tabIndex={-1}
        data-testid="attach-input"
        onChange={(e) => {
          files.add(Array.from(e.target.files ?? []));
          e.target.value = "";
        }}
      />
    </>
  );
}
