/** Thrown when data claiming to be memory items does not have their shape (e.g. a corrupt snapshot row). */
export class MemoryFormatError extends Error {
  override readonly name = "MemoryFormatError";
  /** Dotted path to the offending value, e.g. `items[3].toolCalls[0].id`. */
  readonly path: string;

  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.path = path;
  }
}

/**
 * The current question (with the system prompt it must be sent with) does not fit the token budget. lib/memory
 * does not know HTTP: the turn pipeline maps this to 422 `question_too_long`.
 */
export class ContextBudgetError extends Error {
  override readonly name = "ContextBudgetError";
  readonly code = "question_too_long" as const;
  /** Tokens the question costs, its message envelope included. */
  readonly questionTokens: number;
  /** Tokens the system prompt, the question and the reply priming need together. */
  readonly requiredTokens: number;
  /** The effective budget they had to fit in. */
  readonly budget: number;

  constructor({
    questionTokens,
    requiredTokens,
    budget,
  }: {
    questionTokens: number;
    requiredTokens: number;
    budget: number;
  }) {
    super(
      `The question needs ${requiredTokens} tokens with the system prompt; the budget is ${budget} tokens.`,
    );
    this.questionTokens = questionTokens;
    this.requiredTokens = requiredTokens;
    this.budget = budget;
  }
}
