import type { TurnInput } from "./schemas";

/**
 * What a turn was asked to do, decided once from the validated input: a new question after the active leaf
 * (`ask`), a new question after a chosen message (`edit`: an edited question posts its parent; null: a new
 * root), a new version of an answer beside it (`regenerate`), or a failed answer reopened in place (`retry`).
 */
export type TurnRequest =
  | { kind: "ask"; content: string; attachments: string[] }
  | { kind: "edit"; content: string; attachments: string[]; parentId: string | null }
  | { kind: "regenerate"; answerId: string; model?: string | undefined }
  | { kind: "retry"; answerId: string };

export function turnRequest(input: TurnInput): TurnRequest {
  if ("content" in input) {
    const attachments = input.attachments ?? [];
    return input.parentId === undefined
      ? { kind: "ask", content: input.content, attachments }
      : { kind: "edit", content: input.content, attachments, parentId: input.parentId };
  }
  if ("regenerate" in input) return { kind: "regenerate", answerId: input.regenerate, model: input.model };
  return { kind: "retry", answerId: input.retryMessageId };
}

/** How many seqs the turn takes: a question and its answer, an answer, or none (the retried answer keeps its own). */
export function seqsOf(request: TurnRequest): number {
  return request.kind === "ask" || request.kind === "edit" ? 2 : request.kind === "regenerate" ? 1 : 0;
}
