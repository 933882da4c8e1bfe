"use client";

import Link from "next/link";
import { useErrorText, useT } from "@/lib/i18n/client";
import type { ImportFailure, ImportResult } from "./use-data-import";

/** What was imported, with links to the new conversations. */
export function Imported({ result }: { result: ImportResult }) {
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
      {counts.projects > 0 && (
        <p data-testid="import-projects">
          {t("import.projects", { projects: counts.projects, files: counts.projectFiles })}
        </p>
      )}
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

/** Why nothing was imported, with the file's problems when the server listed them. */
export function ImportFailed({ failure }: { failure: ImportFailure }) {
  const t = useT("data");
  const errorText = useErrorText();
  return (
    <div
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800"
      data-testid="import-error"
    >
      <p className="font-medium">{t("import.failed")}</p>
      <p>{errorText(failure)}</p>
      {failure.problems.length > 0 && (
        <>
          <p className="mt-2">{t("import.problems")}</p>
          <ul className="list-disc pl-5 font-mono text-xs">
            {failure.problems.map((p) => (
              <li key={`${p.path}:${p.message}`}>
                {p.path ? `${p.path}: ` : ""}
                {p.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
