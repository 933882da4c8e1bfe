export interface Receipt {
  sessionId?: string;
  userId?: string;
  deleted: Record<string, number>;
}

// What each kind of record is called for people (the receipt's keys are the server's table names).
const words: Record<string, [one: string, many: string]> = {
  User: ["account", "accounts"],
  ChatSession: ["conversation", "conversations"],
  ChatMessage: ["message", "messages"],
  MemorySnapshot: ["memory snapshot", "memory snapshots"],
  TurnContext: ["recorded context", "recorded contexts"],
  ApiKey: ["API key", "API keys"],
};

function counted(kind: string, count: number): string {
  const [one, many] = words[kind] ?? [kind, kind];
  return `${count} ${count === 1 ? one : many}`;
}

/** "4 messages, 1 memory snapshot and 2 recorded contexts" — every kind, zero counts included. */
export function receiptSentence(deleted: Record<string, number>): string {
  const parts = Object.entries(deleted).map(([kind, count]) => counted(kind, count));
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  return (
    <div data-testid="deletion-receipt" className="space-y-1 text-sm">
      <p className="font-medium" data-testid="receipt-sentence">
        Deleted for good: {receiptSentence(receipt.deleted)}.
      </p>
      <ul className="text-zinc-600">
        {Object.entries(receipt.deleted).map(([kind, count]) => (
          <li key={kind} className="flex justify-between border-t border-zinc-200 py-1">
            <span>{(words[kind] ?? [kind, kind])[1]}</span>
            <span className="tabular-nums" data-testid={`receipt-${kind}`}>
              {count}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
