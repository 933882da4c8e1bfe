"use client";

import { Button } from "@/components/ui/button";

export function Composer({
  value,
  onChange,
  onSend,
  onStop,
  streaming,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: (text: string) => void;
  onStop: () => void;
  streaming: boolean;
}) {
  return (
    <form
      className="border-t border-zinc-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        onSend(value);
      }}
    >
      <div className="mx-auto flex max-w-3xl items-end gap-2">
        <textarea
          data-testid="composer-input"
          aria-label="Message"
          placeholder={
            streaming
              ? "Wait for the answer or stop it…"
              : "Message Recall (Enter to send, Shift+Enter for a new line)"
          }
          value={value}
          disabled={streaming}
          rows={Math.min(8, Math.max(1, value.split("\n").length))}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              onSend(value);
            }
          }}
          className="max-h-60 flex-1 resize-none rounded-lg border border-zinc-300 px-3 py-2 focus:border-zinc-900 focus:outline-none disabled:bg-zinc-100"
        />
        {streaming ? (
          <Button variant="secondary" onClick={onStop} data-testid="stop-button">
            Stop
          </Button>
        ) : (
          <Button type="submit" disabled={!value.trim()} data-testid="send-button">
            Send
          </Button>
        )}
      </div>
    </form>
  );
}
