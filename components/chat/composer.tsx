"use client";

import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { COMPOSER_ID, focusComposer } from "./focus";
import { formatCount } from "./format";
import { composerProblem } from "./use-send";

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
  onSend: (text: string) => void;
  onStop: () => void;
  streaming: boolean;
  maxInputChars: number;
}) {
  const length = value.trim().length;
  const tooLong = length > maxInputChars;
  const canSend = length > 0 && !tooLong;
  // While an answer streams the text area stays open for the next message; only sending waits.
  const send = () => {
    if (canSend && !streaming) onSend(value);
  };

  useEffect(() => {
    focusComposer();
  }, []);

  return (
    <form
      className="border-t border-zinc-200 bg-white p-3"
      aria-label="Send a message"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <div className="mx-auto flex max-w-3xl items-end gap-2">
        <textarea
          id={COMPOSER_ID}
          data-testid="composer-input"
          aria-label="Message"
          aria-invalid={tooLong || undefined}
          aria-describedby={length >= maxInputChars * WARN_AT ? "composer-count" : undefined}
          placeholder="Message Recall (Enter to send, Shift+Enter for a new line)"
          value={value}
          rows={1}
          onChange={(e) => onChange(e.target.value)}
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
            Stop
          </Button>
        ) : (
          <Button type="submit" disabled={!canSend} data-testid="send-button">
            Send
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
          {formatCount(length)} / {formatCount(maxInputChars)}
        </p>
      )}
    </form>
  );
}
