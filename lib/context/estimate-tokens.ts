/**
 * A deterministic estimate, not a tokenizer: about four characters per token plus a fixed overhead for the
 * message envelope. Good enough to compare contexts and spot growth; never use it to enforce a provider limit.
 */
export const CHARS_PER_TOKEN = 4;
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Flat cost per image (a low-detail image on OpenAI models); real cost depends on size and detail. */
export const IMAGE_TOKENS = 85;

/** Estimated tokens for one message whose rendered text is `text`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS;
}
