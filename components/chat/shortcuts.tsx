"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { focusComposer } from "./focus";

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/** True while the user types into a field: single-key shortcuts must not steal those keys. */
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/**
 * The chat's keyboard shortcuts, and a help dialog listing them (opened by its button or by "?"):
 * Ctrl/Cmd+Shift+O new chat, "/" the message box, Shift+Esc too. Ctrl/Cmd+K opens search
 * (components/search/search-dialog.tsx handles it; listed here).
 */
export function Shortcuts({ className = "" }: { className?: string }) {
  const t = useT("chat");
  const tSearch = useT("search");
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [mod, setMod] = useState("Ctrl");

  useEffect(() => {
    setMod(isMac() ? "⌘" : "Ctrl");
    const onKey = (e: KeyboardEvent) => {
      const key = e.key.toLowerCase();
      const withMod = e.ctrlKey || e.metaKey;
      if (withMod && e.shiftKey && key === "o") {
        e.preventDefault();
        router.push("/");
        requestAnimationFrame(focusComposer);
      } else if (!withMod && !e.altKey && key === "/" && !typing(e.target)) {
        e.preventDefault();
        focusComposer();
      } else if (!withMod && key === "?" && !typing(e.target) && !dialog.current?.open) {
        e.preventDefault();
        dialog.current?.showModal();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [router]);

  const rows: [string, string][] = [
    [`${mod}+Shift+O`, t("shortcuts.newChat")],
    [`${mod}+K`, tSearch("shortcut")],
    ["/", t("shortcuts.focus")],
    ["Enter", t("shortcuts.send")],
    ["Shift+Enter", t("shortcuts.newLine")],
    ["Escape", t("shortcuts.escape")],
    ["?", t("shortcuts.help")],
  ];

  return (
    <>
      <Button
        variant="ghost"
        className={className}
        onClick={() => dialog.current?.showModal()}
        data-testid="shortcuts-button"
        aria-haspopup="dialog"
      >
        {t("shortcuts.button")}
      </Button>
      {/* A native modal dialog: it traps focus, closes on Escape and gives focus back to its opener. */}
      <dialog
        ref={dialog}
        aria-labelledby="shortcuts-title"
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-black/40"
        data-testid="shortcuts-dialog"
      >
        <h2 id="shortcuts-title" className="mb-3 text-lg font-semibold">
          {t("shortcuts.title")}
        </h2>
        <table className="w-full text-sm">
          <tbody>
            {rows.map(([keys, what]) => (
              <tr key={what} className="border-t border-zinc-200">
                <th
                  scope="row"
                  className="py-2 pr-4 text-left font-mono text-xs font-medium whitespace-nowrap"
                >
                  {keys}
                </th>
                <td className="py-2 text-zinc-700">{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-4 text-right">
          <Button variant="secondary" onClick={() => dialog.current?.close()}>
            {t("shortcuts.close")}
          </Button>
        </div>
      </dialog>
    </>
  );
}
