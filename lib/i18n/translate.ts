// Message formatting, shared by the server (getT) and the browser (useT). Messages are compiled once on the server
// (compile.ts); the browser receives the compiled form and only runs icu-minify's ~1 KB formatter (no ICU parser in
// the client bundle).
import format, { type CompiledMessage } from "icu-minify/format";
import { createElement, Fragment, type ReactNode } from "react";
import type { Locale } from "./config";
import { formatters } from "./intl";
import type { Messages, Namespace } from "./messages";

/** Namespace → flattened key ("a.b") → compiled message. Plain JSON: crosses the server/client boundary. */
export type CompiledMessages = Record<string, Record<string, CompiledMessage>>;

type Leaves<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

export type MessageKey<N extends Namespace> = Leaves<Messages[N]>;

export type Values = Record<string, string | number | Date>;
export type RichValues = Record<string, string | number | Date | ((chunks: ReactNode[]) => ReactNode)>;

export interface Translator<N extends Namespace> {
  (key: MessageKey<N>, values?: Values): string;
  /** With tags: t.rich("terms", { link: (chunks) => <a href="/terms">{chunks}</a> }). */
  rich(key: MessageKey<N>, values: RichValues): ReactNode;
  /** Whether the key exists (for keys built at run time, e.g. error codes). */
  has(key: string): boolean;
  /** A key built at run time; falls back to `fallback` when missing. */
  dynamic(key: string, fallback: string, values?: Values): string;
}

function flatten(value: unknown, prefix: string, out: Record<string, string>) {
  if (typeof value === "string") out[prefix] = value;
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
}

/** Nested JSON → "a.b" keys → strings. */
export function flattenMessages(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  flatten(value, "", out);
  return out;
}

// Dates in messages are shown in UTC, like every other date in Recall: the server's HTML and the browser agree.
const formatOptions = { formatters, timeZone: "UTC" };

function run(
  locale: Locale,
  messages: CompiledMessages,
  ns: string,
  key: string,
  values: RichValues | undefined,
): ReactNode | null {
  const message = messages[ns]?.[key];
  if (message === undefined) {
    console.error(`i18n: missing message ${ns}.${key} (${locale})`);
    return null;
  }
  try {
    return format<ReactNode>(message, locale, values, formatOptions) as ReactNode;
  } catch (e) {
    console.error(`i18n: cannot format ${ns}.${key} (${locale}): ${e instanceof Error ? e.message : e}`);
    return null;
  }
}

export function createTranslator<N extends Namespace>(
  locale: Locale,
  messages: CompiledMessages,
  ns: N,
): Translator<N> {
  const t = ((key: string, values?: Values) => {
    const out = run(locale, messages, ns, key, values);
    return out === null ? `${ns}.${key}` : String(out);
  }) as Translator<N>;
  t.rich = (key, values) => {
    const out = run(locale, messages, ns, key, values);
    if (out === null) return `${ns}.${key}`;
    return Array.isArray(out) ? createElement(Fragment, null, ...out) : out;
  };
  t.has = (key) => messages[ns]?.[key] !== undefined;
  t.dynamic = (key, fallback, values) => {
    if (messages[ns]?.[key] === undefined) return fallback;
    const out = run(locale, messages, ns, key, values);
    return out === null ? fallback : String(out);
  };
  return t;
}
