// The offline model: an in-process, OpenAI-compatible HTTP handler handed to the OpenAI SDK as its `fetch`.
// It serves POST …/chat/completions and POST …/responses (streamed as SSE, or plain JSON), so the app's real
// code path — SDK, streaming parsers, abort handling — runs without a provider. Its reply is a pure,
// deterministic function of the messages in the request: it can only "remember" what it is sent.

import { offlineAttachmentReply } from "./offline-attachments";
import {
  extractFacts,
  isPersonalQuestion,
  parseFactQuestion,
  recallFact,
  unknownFact,
} from "./offline-facts";
import { isSummaryRequest, statementsFromSummaries, writeSummary } from "./offline-summary";
import { isTitleRequest, writeTitle } from "./offline-title";
import {
  aboutMe,
  callsAgain,
  type PlannedCall,
  plannedCalls,
  replyAfterTools,
  sectionFacts,
} from "./offline-tools";

export interface OfflineMessage {
  role: string;
  text: string;
}

export interface OfflineFetchOptions {
  /** Delay before the first text delta (the "thinking" time). */
  firstTokenDelayMs: number;
  /** Delay between subsequent text deltas. */
  tokenDelayMs: number;
}

export const OFFLINE_MODEL_NAME = "recall-offline";

// ---------------------------------------------------------------------------------------------------------
// The reply: a pure function of the request's messages.
// ---------------------------------------------------------------------------------------------------------

const QUOTE_PAIRS: Record<string, string> = {
  '"': '"',
  "“": "”",
  "'": "'",
  "‘": "’",
  "«": "»",
  "「": "」",
  "『": "』",
  "`": "`",
};

interface RememberRequest {
  /** "phrase": remember the phrase X; "fact": remember that X. */
  kind: "phrase" | "fact";
  value: string;
  replyOnlyNoted: boolean;
}

const RECALL_QUESTION = [
  /\bwhat(?:'s|’s|\s+(?:was|is|were))\s+(?:the|that|my|our)\s+(?:secret\s+|magic\s+)?(?:phrase|word|code\s*word|code|password|passphrase|number|secret|key|token)s?\b(?!\s+(?:for|in|of)\b)/i,
  /\bwhat\s+(?:phrase|word|code|password|passphrase|number|secret|thing)s?\s+(?:did|do|have|had)\s+(?:i|we)\b/i,
  /\bwhat\s+(?:did|do|have|had)\s+(?:i|we)\s+(?:ask|asked|tell|told|want|wanted|say|said)\b[^?.!]*\bremember/i,
  /\bwhat\s+(?:were|are|should|must)\s+you\s+(?:supposed\s+|meant\s+|asked\s+)?(?:to\s+)?remember\b/i,
  /\b(?:do|did|can|could)\s+you\s+(?:still\s+)?(?:remember|recall)\b/i,
  /\bremind\s+me\b[^?.!]*\b(?:phrase|word|code|password|remember)/i,
  /\b(?:i|we)\s+(?:asked|told|wanted)\s+you\s+to\s+remember\b/i,
  /\brecall\s+(?:the|that|my)\s+(?:phrase|word|code|password|passphrase|secret|number)\b/i,
];

// "remember" as an instruction — at the start of a sentence or after a polite lead-in — not "I can't remember".
const REMEMBER_INSTRUCTION =
  /(?:^|[.!?:;,，。！？：；\n]\s*|\b(?:please|pls|kindly|and|also|now|then|just|(?:can|could|would|will)\s+you|i\s+(?:want|need)\s+you\s+to)\s+)remember\b[\s:：,]*/i;

const NAME_QUESTION =
  /\b(?:what(?:'s|’s|\s+is|\s+was)\s+my\s+name|(?:do|did|can)\s+you\s+(?:know|remember|recall)\s+my\s+name|who\s+am\s+i)\b/i;
const NAME_STATEMENT = /\bmy\s+name\s+is\s+([^\n,.!?;:。！？]+)/i;
const FIRST_MESSAGE_QUESTION =
  /\bwhat\s+did\s+i\s+(?:say|ask|write)\s+(?:first|at\s+the\s+(?:start|beginning))\b|\bwhat\s+was\s+my\s+first\s+(?:message|question)\b/i;
const PREVIOUS_MESSAGE_QUESTION =
  /\bwhat\s+did\s+i\s+(?:just\s+)?(?:say|ask|write)\s+(?:earlier|before|previously|last)\b|\bwhat\s+was\s+my\s+(?:last|previous)\s+(?:message|question)\b/i;
const REPLY_ONLY_NOTED =
  /\b(?:reply|respond|answer|say)\s+(?:only\s+|just\s+|with\s+|only\s+with\s+|just\s+with\s+)?["'“‘`]?noted\b/i;
const PHRASE_END =
  /\s+(?:and|then)\s+(?:reply|respond|answer|say|just|only|confirm|tell)\b|[,;，；]\s*(?:and\s+|then\s+)?(?:reply|respond|answer|say|please|confirm)\b|[.!?;。！？；](?=\s|$)|\n/i;

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

function truncate(s: string, max: number): string {
  const chars = [...collapse(s)];
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : chars.join("");
}

function stripValue(s: string): string {
  let v = s.trim().replace(/[\s.,!?;:。！？，；：]+$/u, "");
  const open = v[0];
  const close = open ? QUOTE_PAIRS[open] : undefined;
  if (close && v.length >= 2 && v.endsWith(close)) v = v.slice(1, -1).trim();
  return v;
}

export function isRecallQuestion(text: string): boolean {
  return RECALL_QUESTION.some((re) => re.test(text));
}

/** Parses "remember the phrase X", "remember that X", "Remember: X"; null when the text asks nothing to be kept. */
export function parseRememberRequest(text: string): RememberRequest | null {
  if (isRecallQuestion(text)) return null;
  const m = REMEMBER_INSTRUCTION.exec(text);
  if (!m) return null;
  let rest = text.slice(m.index + m[0].length);
  let kind: RememberRequest["kind"] = "phrase";
  const that = /^that\s+/i.exec(rest);
  if (that) {
    kind = "fact";
    rest = rest.slice(that[0].length);
  } else {
    rest = rest
      .replace(/^(?:this|the|my|a|our|these|following)\s+/i, "")
      .replace(
        /^(?:secret\s+|magic\s+)?(?:phrase|word|code\s*word|code|password|passphrase|number|key|token|secret|string)s?\b\s*/i,
        "",
      )
      .replace(/^(?:is\b|[:：=])\s*/i, "")
      .replace(/^(?:following\s*)?[:：]\s*/i, "");
  }
  let value: string;
  const open = rest[0];
  const close = open ? QUOTE_PAIRS[open] : undefined;
  const closeAt = close ? rest.indexOf(close, 1) : -1;
  if (close && closeAt > 1) {
    value = rest.slice(1, closeAt).trim();
  } else {
    const end = PHRASE_END.exec(rest);
    value = stripValue(end ? rest.slice(0, end.index) : rest);
  }
  if (!value) return null;
  return { kind, value, replyOnlyNoted: REPLY_ONLY_NOTED.test(text) };
}

function findName(text: string): string | null {
  const m = NAME_STATEMENT.exec(text);
  if (!m?.[1]) return null;
  const name = stripValue(m[1].split(/\s+(?:and|but|so)\s+/i)[0]?.replace(/^now\s+/i, "") ?? "");
  return name ? truncate(name, 60) : null;
}

/**
 * What a sentence states, as subject keys for the summary's "latest wins": each fact it states (an attribute by
 * its subject, a like by its value) and a "remember …" request by its value. Empty: nothing worth keeping.
 */
export function statedSubjects(sentence: string): string[] {
  const subjects = extractFacts(sentence).map((fact) =>
    fact.kind === "attribute" ? `attribute:${fact.lang}:${fact.key}` : `like:${fact.value.toLowerCase()}`,
  );
  const request = parseRememberRequest(sentence);
  if (request) subjects.push(`remember:${request.kind}:${request.value.toLowerCase()}`);
  return subjects;
}

/**
 * The offline model's answer. Deterministic; sees only `messages`. A summary request (lib/llm/summarize.ts) gets
 * the summary of the user statements it holds (offline-summary.ts). Otherwise the current question is the last
 * user message; the user messages before it, and the "User: …" lines of summaries sent as system messages
 * (older than any message), are what the user said earlier. No other system text ever is.
 */
export function offlineReply(messages: ReadonlyArray<OfflineMessage>): string {
  // A title request (lib/chat/auto-title.ts) gets a short title of the question it holds (offline-title.ts).
  if (isTitleRequest(messages)) return writeTitle(messages);
  if (isSummaryRequest(messages)) {
    return writeSummary(
      messages.filter((m) => m.role === "user").map((m) => m.text),
      statedSubjects,
    );
  }
  let current = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      current = i;
      break;
    }
  }
  const question = current >= 0 ? (messages[current]?.text ?? "") : "";
  const earlier = current >= 0 ? messages.slice(0, current) : [...messages];
  // Newest first.
  const earlierUser = earlier
    .filter((m) => m.role === "user")
    .map((m) => m.text)
    .reverse();
  // What the user stated, newest first: the earlier user messages, then what summaries say they said, then the
  // long-term memory section's facts (learned in other conversations, so older than anything said here).
  const stated = [
    ...earlierUser,
    ...statementsFromSummaries(messages).reverse(),
    ...sectionFacts(messages).map((f) => f.text),
  ];

  const known = aboutMe(question, messages);
  if (known) return known;

  if (NAME_QUESTION.test(question)) {
    for (const text of stated) {
      const name = findName(text);
      if (name) return `Your name is ${name}.`;
    }
    return "I don't know your name — you haven't told me in this conversation.";
  }

  if (FIRST_MESSAGE_QUESTION.test(question) || PREVIOUS_MESSAGE_QUESTION.test(question)) {
    const first = FIRST_MESSAGE_QUESTION.test(question);
    const said = first ? earlierUser[earlierUser.length - 1] : earlierUser[0];
    if (said === undefined) {
      return "I don't know — I can't see any earlier message from you in this conversation.";
    }
    return first
      ? `The first message of yours that I can see is: "${truncate(said, 80)}"`
      : `Your previous message was: "${truncate(said, 80)}"`;
  }

  // "What is my code word?" — a fact stated naturally earlier ("My code word is …", offline-facts.ts).
  const factQuestion = parseFactQuestion(question);
  const fact = factQuestion ? recallFact(factQuestion, stated) : null;
  if (fact) return fact;

  if (isRecallQuestion(question)) {
    for (const text of stated) {
      const request = parseRememberRequest(text);
      if (request) {
        return request.kind === "fact"
          ? `You asked me to remember that ${request.value}.`
          : `The phrase you asked me to remember is ${request.value}.`;
      }
    }
  }
  if (factQuestion && isPersonalQuestion(factQuestion)) return unknownFact(factQuestion);
  if (isRecallQuestion(question)) {
    return "I don't know — nothing in this conversation asked me to remember a phrase.";
  }

  const request = parseRememberRequest(question);
  if (request) {
    return request.replyOnlyNoted ? "noted" : `Noted — I'll remember: ${request.value}.`;
  }

  const name = findName(question);
  if (name) return `Nice to meet you, ${name}.`;

  const seen = earlier.filter((m) => m.role !== "system").length;
  return `Offline model reply to: "${truncate(question, 80)}" (I saw ${seen} earlier ${seen === 1 ? "message" : "messages"}.)`;
}

/** Rough token estimate: one token per four characters (code points), rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil([...text].length / 4);
}

/** Splits a reply into small word-ish chunks that concatenate back to it exactly. */
export function chunkReply(text: string): string[] {
  const chunks: string[] = [];
  for (const word of text.match(/\s*\S+|\s+$/gu) ?? []) {
    const chars = [...word];
    for (let i = 0; i < chars.length; i += 12) chunks.push(chars.slice(i, i + 12).join(""));
  }
  if (chunks.join("") !== text) return text ? [text] : [];
  return chunks;
}

// ---------------------------------------------------------------------------------------------------------
// Request text extraction (both API shapes).
// ---------------------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      if (!isObject(part)) return "";
      if (typeof part.text === "string") return part.text; // text, input_text, output_text
      if (typeof part.refusal === "string") return part.refusal;
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

const normalRole = (role: unknown): string => (role === "developer" ? "system" : String(role ?? "user"));

/** Chat Completions `messages` → plain role/text pairs. */
export function chatRequestMessages(body: Json): OfflineMessage[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.filter(isObject).map((m) => ({ role: normalRole(m.role), text: contentText(m.content) }));
}

function responsesItems(input: unknown, defaultRole: string): OfflineMessage[] {
  if (typeof input === "string") return [{ role: defaultRole, text: input }];
  if (!Array.isArray(input)) return [];
  const out: OfflineMessage[] = [];
  for (const item of input) {
    if (!isObject(item)) continue;
    if (item.type === "message" || (item.type === undefined && "role" in item)) {
      out.push({ role: normalRole(item.role ?? defaultRole), text: contentText(item.content) });
    } else if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
      out.push({ role: "tool", text: contentText(item.output) });
    } else if (item.type === "function_call" || item.type === "custom_tool_call") {
      out.push({ role: "assistant", text: "" });
    }
  }
  return out;
}

/** Responses `instructions` + `input` → plain role/text pairs (instructions become a system message). */
export function responsesRequestMessages(body: Json): OfflineMessage[] {
  return [...responsesItems(body.instructions, "system"), ...responsesItems(body.input, "user")];
}

// ---------------------------------------------------------------------------------------------------------
// The HTTP handler.
// ---------------------------------------------------------------------------------------------------------

const encoder = new TextEncoder();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function errorResponse(status: number, message: string, type: string, code: string | null): Response {
  return jsonResponse(status, { error: { message, type, param: null, code } });
}

function abortError(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("This operation was aborted", "AbortError");
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** One SSE frame: a step of the stream, sent after `delayMs`. */
interface Frame {
  delayMs: number;
  data: string;
}

function sseStream(frames: Frame[], signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let cancelled = false;
  let onAbort = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onAbort = () => {
        if (cancelled) return;
        cancelled = true;
        try {
          controller.error(signal ? abortError(signal) : new DOMException("Aborted", "AbortError"));
        } catch {
          // Already closed.
        }
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      void (async () => {
        for (const frame of frames) {
          if (frame.delayMs > 0) await sleep(frame.delayMs, signal);
          if (cancelled) return;
          controller.enqueue(encoder.encode(frame.data));
        }
        if (cancelled) return;
        cancelled = true;
        signal?.removeEventListener("abort", onAbort);
        controller.close();
      })();
    },
    cancel() {
      cancelled = true;
      signal?.removeEventListener("abort", onAbort);
    },
  });
}

function sseResponse(frames: Frame[], signal: AbortSignal | undefined): Response {
  return new Response(sseStream(frames, signal), {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}

interface OfflineCall {
  id: string;
  name: string;
  arguments: string;
}

interface Turn {
  id: string;
  created: number;
  model: string;
  reply: string;
  chunks: string[];
  /** Non-empty: the model asks for these tools instead of replying. */
  calls: OfflineCall[];
  promptTokens: number;
  completionTokens: number;
}

/** Names of the functions the request offers (Chat Completions and Responses shapes). */
export function offeredTools(body: Json): Set<string> {
  const names = new Set<string>();
  if (body.tool_choice === "none") return names;
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (!isObject(tool)) continue;
    const fn = isObject(tool.function) ? tool.function : tool;
    if (typeof fn.name === "string") names.add(fn.name);
  }
  return names;
}

/**
 * Tool calls or a reply. After the current question: no tool results yet → the calls its rules plan; tool
 * results → a reply saying what they did (or, for "keep checking the time", another call).
 */
export function offlineStep(
  messages: ReadonlyArray<OfflineMessage>,
  offered: ReadonlySet<string>,
): { calls: PlannedCall[] } | { reply: string } {
  let current = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      current = i;
      break;
    }
  }
  const question = messages[current]?.text ?? "";
  const results = messages.slice(current + 1).filter((m) => m.role === "tool");
  if (current >= 0 && !isSummaryRequest(messages) && !isTitleRequest(messages)) {
    if (results.length > 0) {
      const again = callsAgain(question, offered);
      return again.length
        ? { calls: again }
        : {
            reply: replyAfterTools(
              question,
              results.map((m) => m.text),
            ),
          };
    }
    const calls = plannedCalls(question, offered, messages);
    if (calls.length) return { calls };
  }
  return { reply: offlineReply(messages) };
}

function makeTurn(body: Json, messages: OfflineMessage[], idPrefix: string): Turn {
  const step = offlineStep(messages, offeredTools(body));
  const reply = "reply" in step ? offlineAttachmentReply(body, step.reply) : "";
  const calls =
    "calls" in step
      ? step.calls.map((c) => ({
          id: `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
          name: c.name,
          arguments: JSON.stringify(c.arguments),
        }))
      : [];
  return {
    id: `${idPrefix}${crypto.randomUUID().replaceAll("-", "")}`,
    created: Math.floor(Date.now() / 1000),
    model: typeof body.model === "string" && body.model ? body.model : OFFLINE_MODEL_NAME,
    reply,
    chunks: chunkReply(reply),
    calls,
    promptTokens: estimateTokens(messages.map((m) => m.text).join("\n")),
    completionTokens: estimateTokens(reply + calls.map((c) => c.name + c.arguments).join("")),
  };
}

function deltaDelay(index: number, options: OfflineFetchOptions): number {
  return index === 0 ? options.firstTokenDelayMs : options.tokenDelayMs;
}

function chatCompletions(
  body: Json,
  options: OfflineFetchOptions,
  signal: AbortSignal | undefined,
): Response {
  const t = makeTurn(body, chatRequestMessages(body), "chatcmpl-offline-");
  const usage = {
    prompt_tokens: t.promptTokens,
    completion_tokens: t.completionTokens,
    total_tokens: t.promptTokens + t.completionTokens,
  };
  if (body.stream !== true) {
    return jsonResponse(200, {
      id: t.id,
      object: "chat.completion",
      created: t.created,
      model: t.model,
      system_fingerprint: null,
      choices: [
        {
          index: 0,
          message: t.calls.length
            ? {
                role: "assistant",
                content: null,
                refusal: null,
                tool_calls: t.calls.map((c) => ({
                  id: c.id,
                  type: "function",
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : { role: "assistant", content: t.reply, refusal: null },
          logprobs: null,
          finish_reason: t.calls.length ? "tool_calls" : "stop",
        },
      ],
      usage,
    });
  }
  const includeUsage = isObject(body.stream_options) && body.stream_options.include_usage === true;
  const chunk = (choices: unknown[], extra: Json = {}) =>
    `data: ${JSON.stringify({
      id: t.id,
      object: "chat.completion.chunk",
      created: t.created,
      model: t.model,
      system_fingerprint: null,
      choices,
      ...(includeUsage ? { usage: null } : {}),
      ...extra,
    })}\n\n`;
  const choice = (delta: Json, finish: string | null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finish,
  });
  const frames: Frame[] = [
    { delayMs: 0, data: chunk([choice({ role: "assistant", content: "" }, null)]) },
    ...t.chunks.map((text, i) => ({
      delayMs: deltaDelay(i, options),
      data: chunk([choice({ content: text }, null)]),
    })),
    // A call streams like OpenAI's: id and name first, then the arguments.
    ...t.calls.flatMap((c, index) => [
      {
        delayMs: index === 0 ? options.firstTokenDelayMs : 0,
        data: chunk([
          choice(
            {
              tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }],
            },
            null,
          ),
        ]),
      },
      {
        delayMs: 0,
        data: chunk([choice({ tool_calls: [{ index, function: { arguments: c.arguments } }] }, null)]),
      },
    ]),
    { delayMs: 0, data: chunk([choice({}, t.calls.length ? "tool_calls" : "stop")]) },
    ...(includeUsage ? [{ delayMs: 0, data: chunk([], { usage }) }] : []),
    { delayMs: 0, data: "data: [DONE]\n\n" },
  ];
  return sseResponse(frames, signal);
}

function responses(body: Json, options: OfflineFetchOptions, signal: AbortSignal | undefined): Response {
  const t = makeTurn(body, responsesRequestMessages(body), "resp_offline_");
  const itemId = `msg_offline_${t.id.slice("resp_offline_".length)}`;
  const usage = {
    input_tokens: t.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: t.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: t.promptTokens + t.completionTokens,
  };
  const part = (text: string) => ({ type: "output_text", text, annotations: [], logprobs: [] });
  const message = (status: "in_progress" | "completed", text: string | null) => ({
    id: itemId,
    type: "message",
    role: "assistant",
    status,
    content: text === null ? [] : [part(text)],
  });
  const functionCall = (c: OfflineCall, status: "in_progress" | "completed") => ({
    id: `fc_${c.id.slice("call_".length)}`,
    type: "function_call",
    call_id: c.id,
    name: c.name,
    arguments: status === "completed" ? c.arguments : "",
    status,
  });
  const output = () =>
    t.calls.length ? t.calls.map((c) => functionCall(c, "completed")) : [message("completed", t.reply)];
  const response = (status: "in_progress" | "completed") => ({
    id: t.id,
    object: "response",
    created_at: t.created,
    status,
    completed_at: status === "completed" ? t.created : null,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: isObject(body.metadata) ? body.metadata : {},
    model: t.model,
    output: status === "completed" ? output() : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: status === "completed" ? usage : null,
  });
  if (body.stream !== true) return jsonResponse(200, response("completed"));

  let seq = 0;
  const event = (type: string, data: Json, delayMs = 0): Frame => ({
    delayMs,
    data: `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`,
  });
  if (t.calls.length) {
    const frames: Frame[] = [
      event("response.created", { response: response("in_progress") }),
      event("response.in_progress", { response: response("in_progress") }),
    ];
    t.calls.forEach((c, output_index) => {
      const item = functionCall(c, "in_progress");
      frames.push(
        event(
          "response.output_item.added",
          { output_index, item },
          output_index === 0 ? options.firstTokenDelayMs : 0,
        ),
        event("response.function_call_arguments.delta", {
          item_id: item.id,
          output_index,
          delta: c.arguments,
        }),
        event("response.function_call_arguments.done", {
          item_id: item.id,
          output_index,
          arguments: c.arguments,
        }),
        event("response.output_item.done", { output_index, item: functionCall(c, "completed") }),
      );
    });
    frames.push(event("response.completed", { response: response("completed") }));
    return sseResponse(frames, signal);
  }
  const at = { item_id: itemId, output_index: 0, content_index: 0 };
  const frames: Frame[] = [
    event("response.created", { response: response("in_progress") }),
    event("response.in_progress", { response: response("in_progress") }),
    event("response.output_item.added", { output_index: 0, item: message("in_progress", null) }),
    event("response.content_part.added", { ...at, part: part("") }),
  ];
  t.chunks.forEach((delta, i) => {
    frames.push(event("response.output_text.delta", { ...at, delta, logprobs: [] }, deltaDelay(i, options)));
  });
  frames.push(
    event("response.output_text.done", { ...at, text: t.reply, logprobs: [] }),
    event("response.content_part.done", { ...at, part: part(t.reply) }),
    event("response.output_item.done", { output_index: 0, item: message("completed", t.reply) }),
    event("response.completed", { response: response("completed") }),
  );
  return sseResponse(frames, signal);
}

async function readBody(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string> {
  if (init?.body !== undefined && init.body !== null) {
    return typeof init.body === "string" ? init.body : new Response(init.body).text();
  }
  return input instanceof Request ? input.clone().text() : "";
}

/**
 * Creates the offline model's `fetch`. Pass it to `new OpenAI({ fetch })`; any base URL works. The stream
 * honours the request's AbortSignal: an abort errors the body with an AbortError and stops producing.
 */
export function createOfflineFetch(options: OfflineFetchOptions): typeof fetch {
  const offlineFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const signal = init?.signal ?? request?.signal ?? undefined;
    if (signal?.aborted) throw abortError(signal);
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/\/+$/, "");
    const route = path.endsWith("/chat/completions")
      ? "chat"
      : path.endsWith("/responses")
        ? "responses"
        : null;
    if (!route || method !== "POST") {
      return errorResponse(
        404,
        `Unknown request: ${method} ${url.pathname}. The offline model serves POST /chat/completions and POST /responses.`,
        "invalid_request_error",
        "unknown_url",
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(input, init));
    } catch {
      return errorResponse(400, "The request body is not valid JSON.", "invalid_request_error", null);
    }
    if (!isObject(body)) {
      return errorResponse(400, "The request body must be a JSON object.", "invalid_request_error", null);
    }
    if (route === "chat") {
      if (!Array.isArray(body.messages)) {
        return errorResponse(
          400,
          "'messages' is required.",
          "invalid_request_error",
          "missing_required_parameter",
        );
      }
      return chatCompletions(body, options, signal);
    }
    if (body.input === undefined && body.instructions === undefined) {
      return errorResponse(
        400,
        "'input' is required.",
        "invalid_request_error",
        "missing_required_parameter",
      );
    }
    return responses(body, options, signal);
  };
  return offlineFetch;
}
