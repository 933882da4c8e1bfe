"use client";

import { useEffect } from "react";
import { AttachButton } from "@/components/attachments/attach-button";
import { PendingAttachments } from "@/components/attachments/composer-attachments";
import type { AttachmentView } from "@/components/attachments/upload-file";
import {
  type PendingAttachment,
  useComposerAttachments,
  viewsOf,
} from "@/components/attachments/use-composer-attachments";
import { useFileDrop } from "@/components/attachments/use-file-drop";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { COMPOSER_ID, focusComposer } from "./focus";
import { formatCount } from "./format";
import { useComposerProblem } from "./use-send";

/** The counter appears within this share of the limit. */
const WARN_AT = 0.9;

export function Composer({
  value,
  onChange,
  onSend,
  onStop,
  streaming,
  maxInputChars,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The text and the uploaded attachments; resolves false when the message was not sent (they come back). */
  onSend: (text: string, attachments: AttachmentView[]) => undefined | Promise<boolean | undefined>;
  onStop: () => void;
  streaming: boolean;
  maxInputChars: number;
}) {
  const t = useT("chat");
  const composerProblem = useComposerProblem();
  const length = value.trim().length;
  const tooLong = length > maxInputChars;
  const files = useComposerAttachments();
  const drop = useFileDrop(files);
  const canSend = (length > 0 || files.ready.length > 0) && !tooLong && !files.uploading;
  // While an answer streams the text area stays open for the next message; only sending waits.
  const send = () => {
    if (!canSend || streaming) return;
    const taken: PendingAttachment[] = files.take();
    void Promise.resolve(onSend(value, viewsOf(taken))).then((sent) => {
      if (sent === false) files.restore(taken);
    });
  };

  useEffect(() => {
    focusComposer();
  }, []);

  return (
    <form
      className="border-t border-zinc-200 bg-white p-3"
      aria-label={t("composer.form")}
      {...drop.dropProps}
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <PendingAttachments files={files} dragging={drop.dragging} onRemoved={focusComposer} />
      <div className="mx-auto flex max-w-3xl items-end gap-2">
        <AttachButton files={files} />
        <textarea
          id={COMPOSER_ID}
          data-testid="composer-input"
          aria-label={t("composer.label")}
          aria-invalid={tooLong || undefined}
          aria-describedby={length >= maxInputChars * WARN_AT ? "composer-count" : undefined}
          placeholder={t("composer.placeholder")}
          value={value}
          rows={1}
          onChange={(e) => onChange(e.target.value)}
          onPaste={drop.onPaste}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          className={`field-sizing-content max-h-60 min-h-10 min-w-0 flex-1 resize-none rounded-lg border bg-white px-3 py-2 placeholder:text-zinc-500 focus:outline-none ${tooLong ? "border-red-500 focus:border-red-600" : "border-zinc-300 focus:border-zinc-900"}`}
        />
        {streaming ? (
          <Button variant="secondary" onClick={onStop} data-testid="stop-button">
            {t("composer.stop")}
          </Button>
        ) : (
          <Button type="submit" disabled={!canSend} data-testid="send-button">
            {t("composer.send")}
          </Button>
        )}
      </div>
      {length >= maxInputChars * WARN_AT && (
        <p
          id="composer-count"
          data-testid="composer-count"
          aria-live="polite"
          className={`mx-auto mt-1 max-w-3xl text-right text-xs ${tooLong ? "font-medium text-red-700" : "text-amber-700"}`}
        >
          {tooLong && <span data-testid="composer-too-long">{composerProblem(value, maxInputChars)} </span>}
          {t("composer.count", { length: formatCount(length), max: formatCount(maxInputChars) })}
        </p>
      )}
    </form>
  );
}
