// One entry point per encoding (not the package root), so only the two vocabularies Recall uses are loaded.
import { countTokens as cl100kCount } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as o200kCount } from "gpt-tokenizer/encoding/o200k_base";
import { type MemoryItem, SUMMARY_PREFIX, type TokenCounter } from "@/lib/memory";
import { parseAttachmentRef } from "@/lib/memory/attachments";
import { TextCache } from "@/lib/memory/text-cache";

export type EncodingName = "o200k_base" | "cl100k_base";

/**
 * OpenAI's published counting rule for chat models ("How to count tokens with tiktoken"): every message costs
 * 3 tokens of envelope plus its values (role, content), a `name` one more, and every reply is primed with 3.
 */
export const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_NAME = 1;
export const REPLY_PRIMING_TOKENS = 3;

/** OpenAI's image rule: 85 tokens at low detail; at high detail 85 plus 170 per 512 px tile. */
const IMAGE_BASE_TOKENS = 85;
const IMAGE_TILE_TOKENS = 170;
/**
 * Attachment references carry their image's size; other image URLs do not, and Recall sends images at `auto`
 * detail: an image of unknown size is counted as a high-detail 1024×1024 one (4 tiles: 85 + 4 × 170 = 765), a
 * typical photo after OpenAI's scaling, so a budget is not overrun by pictures counted as cheap.
 */
export const DEFAULT_IMAGE_TOKENS = 765;

// Plain text, never control tokens: a user typing "<|endoftext|>" gets it counted as text, not an error.
const asText = { disallowedSpecial: new Set<string>() };
const counters: Record<EncodingName, (text: string) => number> = {
  o200k_base: (text) => o200kCount(text, asText),
  cl100k_base: (text) => cl100kCount(text, asText),
};

/**
 * The encoding for a model name: `cl100k_base` for the gpt-4 (not gpt-4o / 4.1 / 4.5) and gpt-3.5-turbo families
 * and the older embedding models, `o200k_base` for everything else, including models OpenAI did not make (an
 * approximation for them). A provider prefix such as `openai/` is ignored.
 */
export function encodingForModel(model: string): EncodingName {
  const name = model.trim().toLowerCase().split("/").at(-1) ?? "";
  if (/^gpt-4(?![o.])/.test(name) || /^gpt-3\.5/.test(name) || /^gpt-35/.test(name)) return "cl100k_base";
  if (/^text-embedding-(ada-002|3-)/.test(name)) return "cl100k_base";
  return "o200k_base";
}

/** Tokens for one image by OpenAI's rule; `width`/`height` unknown → `DEFAULT_IMAGE_TOKENS` (unless low detail). */
export function imageTokens({
  width,
  height,
  detail = "auto",
}: {
  width?: number;
  height?: number;
  detail?: "low" | "high" | "auto";
} = {}): number {
  if (detail === "low") return IMAGE_BASE_TOKENS;
  if (!width || !height || width <= 0 || height <= 0) return DEFAULT_IMAGE_TOKENS;
  // Fit within 2048 × 2048, then scale so the shortest side is 768 (only ever down), then count 512 px tiles.
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortest = Math.min(w, h);
  if (shortest > 768) {
    w *= 768 / shortest;
    h *= 768 / shortest;
  }
  const tiles = Math.ceil(Math.floor(w) / 512) * Math.ceil(Math.floor(h) / 512);
  return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * tiles;
}

/** A chat message as OpenAI's counting rule sees it (used to check the rule against its published numbers). */
export interface CountedMessage {
  role: string;
  content: string;
  name?: string;
}

export interface Tokenizer {
  readonly encoding: EncodingName;
  /** Tokens of a bare string. */
  countText(text: string): number;
  /** Tokens one memory item costs as a message, envelope included (a `TokenCounter` for the memory policies). */
  countItem: TokenCounter;
  /** Tokens of a whole request's messages, reply priming included. */
  countMessages(messages: readonly CountedMessage[]): number;
  /** Added once per request for the reply's priming. */
  readonly replyPriming: number;
}

/** The text the model sees for an item, as the projections render it (summary prefix, tool calls). */
export function renderedText(item: MemoryItem): string {
  const text = item.summary ? `${SUMMARY_PREFIX}${item.text}` : item.text;
  const calls = (item.toolCalls ?? []).map((call) => `${call.name}(${call.arguments})`);
  return [text, ...calls].filter((part) => part !== "").join("\n");
}

/** How many texts each tokenizer remembers the count of… */
export const COUNT_CACHE_SIZE = 5000;
/**
 * …and how many characters they may hold in all: the keys are the texts themselves, and 5 000 long pastes (a message
 * may hold 100 000 characters) would otherwise keep hundreds of megabytes alive.
 */
const COUNT_CACHE_CHARS = 2_000_000;

/** Texts at least this long are counted in pieces (`pieces`); shorter ones whole. */
const PIECES_FROM = 512;
/** A text of more pieces is counted whole, so one long paste does not push every other text out of the cache. */
const MAX_PIECES = 256;

/**
 * Where a text can be cut without changing its token count in either encoding: before every line that starts with
 * a character other than white space and "/". No pre-token holds a line break and the character after it there:
 * each pattern that takes a line break ends with its run of line breaks (o200k's punctuation pattern also takes the
 * slashes after them, hence "/") or holds only white space, and pre-tokens are encoded each on its own. Checked
 * against counting whole in tokenizer.test.ts.
 */
export function pieces(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let at = text.indexOf("\n"); at >= 0 && at + 1 < text.length; at = text.indexOf("\n", at + 1)) {
    const next = text[at + 1] as string;
    if (next === "/" || /\s/u.test(next)) continue;
    out.push(text.slice(start, at + 1));
    start = at + 1;
  }
  out.push(text.slice(start));
  return out;
}

/**
 * `count` remembering its last results: a conversation's memory is counted again on every turn, and the same texts
 * come back each time (a `TextCache`: at most `entries` texts and `chars` characters, a longer text counted and not
 * kept). A long text of several pieces is the sum of its pieces' counts, and only the pieces are kept: the recall
 * section is a new combination of messages that were mostly recalled before, one line each, so only its new lines
 * are encoded, and the ~9 KB section itself, different every turn, is not kept.
 */
export function memoizedCount(
  count: (text: string) => number,
  { entries = COUNT_CACHE_SIZE, chars = COUNT_CACHE_CHARS }: { entries?: number; chars?: number } = {},
): (text: string) => number {
  const cache = new TextCache<number>(entries, chars);
  const remembered = (text: string) => cache.getOrSet(text, count);
  return (text) => {
    if (text.length < PIECES_FROM) return remembered(text);
    const known = cache.get(text);
    if (known !== undefined) return known;
    const parts = pieces(text);
    if (parts.length < 2 || parts.length > MAX_PIECES) return remembered(text);
    let tokens = 0;
    for (const part of parts) tokens += remembered(part);
    return tokens;
  };
}

function createTokenizer(encoding: EncodingName): Tokenizer {
  const countText = memoizedCount(counters[encoding]);
  const countItem: TokenCounter = (item) => {
    // Summaries are sent as system messages whatever their stored role.
    let tokens = TOKENS_PER_MESSAGE + countText(item.summary ? "system" : item.role);
    tokens += countText(item.summary ? `${SUMMARY_PREFIX}${item.text}` : item.text);
    // OpenAI publishes no rule for tool calls; like every other value a message carries, their id, name and
    // arguments are counted as text.
    for (const call of item.toolCalls ?? []) {
      tokens += countText(call.id) + countText(call.name) + countText(call.arguments);
    }
    if (item.toolCallId !== undefined) tokens += countText(item.toolCallId);
    // An attachment reference carries the image's size (sent at `auto` detail, counted as high); a plain URL does not.
    for (const url of item.imageUrls ?? []) tokens += imageTokens(parseAttachmentRef(url) ?? {});
    return tokens;
  };
  return {
    encoding,
    countText,
    countItem,
    countMessages(messages) {
      let tokens = REPLY_PRIMING_TOKENS;
      for (const message of messages) {
        tokens += TOKENS_PER_MESSAGE + countText(message.role) + countText(message.content);
        if (message.name !== undefined) tokens += countText(message.name) + TOKENS_PER_NAME;
      }
      return tokens;
    },
    replyPriming: REPLY_PRIMING_TOKENS,
  };
}

const tokenizers = new Map<EncodingName, Tokenizer>();

/** The tokenizer for a model (one per encoding, shared: it holds no per-call state). */
export function tokenizerFor(model: string): Tokenizer {
  const encoding = encodingForModel(model);
  let tokenizer = tokenizers.get(encoding);
  if (!tokenizer) {
    tokenizer = createTokenizer(encoding);
    tokenizers.set(encoding, tokenizer);
  }
  return tokenizer;
}
