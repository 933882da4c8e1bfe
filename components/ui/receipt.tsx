import { useT } from "@/lib/i18n/client";
import type { Translator } from "@/lib/i18n/translate";

export interface Receipt {
  sessionId?: string;
  userId?: string;
  deleted: Record<string, number>;
  /** Rows that stayed at the user's choice (facts kept without their source). */
  kept?: { MemoryFact: number };
}

// What each kind of record is called for people (the receipt's keys are the server's table names), in
// messages/*/receipt.json: `counted.<Kind>` and `names.<Kind>`. A kind without words shows its table name.
type T = Translator<"receipt">;

function counted(t: T, kind: string, count: number): string {
  return t.dynamic(`counted.${kind}`, `${count} ${kind}`, { n: count });
}

// Kinds only some conversations have: named in the sentence only when something of theirs was deleted.
const occasional = new Set(["MemoryFact", "Attachment", "Share"]);

function sized(t: T, bytes: number): string {
  if (bytes < 1024) return t("size.bytes", { n: bytes });
  if (bytes < 1024 * 1024) return t("size.kb", { n: (bytes / 1024).toFixed(1) });
  return t("size.mb", { n: (bytes / (1024 * 1024)).toFixed(1) });
}

/**
 * "4 messages, 1 memory snapshot and 2 recorded contexts" — every kind (zero counts included, except memories and
 * attachments when there were none); the bytes freed go with the attachments.
 */
export function receiptSentence(t: T, deleted: Record<string, number>): string {
  const parts = Object.entries(deleted)
    .filter(([kind, count]) => kind !== "AttachmentBytes" && !(occasional.has(kind) && count === 0))
    .map(([kind, count]) =>
      kind === "Attachment"
        ? t("withSize", { what: counted(t, kind, count), size: sized(t, deleted.AttachmentBytes ?? 0) })
        : counted(t, kind, count),
    );
  if (parts.length <= 1) return parts.join("");
  return t("lastJoin", { head: parts.slice(0, -1).join(t("separator")), last: parts.at(-1) ?? "" });
}

/** A deletion's receipt; `moved`: what was kept instead, moved elsewhere (a project deleted with its contents kept). */
export function ReceiptView({ receipt, moved }: { receipt: Receipt; moved?: Record<string, number> | null }) {
  const t = useT("receipt");
  return (
    <div data-testid="deletion-receipt" className="space-y-1 text-sm">
      <p className="font-medium" data-testid="receipt-sentence">
        {t("deletedForGood", { sentence: receiptSentence(t, receipt.deleted) })}
      </p>
      {moved && <p data-testid="receipt-moved">{t("movedOut", { sentence: receiptSentence(t, moved) })}</p>}
      <ul className="text-zinc-600">
        {Object.entries(receipt.deleted).map(([kind, count]) => (
          <li key={kind} className="flex justify-between border-t border-zinc-200 py-1">
            <span>{t.dynamic(`names.${kind}`, kind)}</span>
            <span className="tabular-nums" data-testid={`receipt-${kind}`}>
              {count}
            </span>
          </li>
        ))}
      </ul>
      {receipt.kept && receipt.kept.MemoryFact > 0 && (
        <p className="text-zinc-600" data-testid="receipt-kept-facts">
          {t("keptFacts", { n: receipt.kept.MemoryFact })}
        </p>
      )}
    </div>
  );
}
