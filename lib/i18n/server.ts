// Server side of i18n: the request's locale, its messages and translators for server components, route handlers and
// server actions. `const t = await getT("common")`.
import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { compileMessages } from "./compile";
import { LOCALE_COOKIE, type Locale, resolveLocale } from "./config";
import { createFormat, type Format } from "./format";
import { loadMessages, type Namespace } from "./messages";
import { type CompiledMessages, createTranslator, type Translator } from "./translate";

/** The locale of this request: the user's choice (cookie), else Accept-Language. */
export const getLocale = cache(async (): Promise<Locale> => {
  const [jar, head] = await Promise.all([cookies(), headers()]);
  return resolveLocale(jar.get(LOCALE_COOKIE)?.value, head.get("accept-language"));
});

// Compiled once per process and locale: messages are part of the build, they never change at run time.
const compiled = new Map<Locale, Promise<CompiledMessages>>();

function getMessagesFor(locale: Locale): Promise<CompiledMessages> {
  let hit = compiled.get(locale);
  if (!hit) {
    hit = loadMessages(locale).then(compileMessages);
    compiled.set(locale, hit);
  }
  return hit;
}

/** The request locale's compiled messages (what the root layout hands to the browser). */
export async function getMessages(): Promise<CompiledMessages> {
  return getMessagesFor(await getLocale());
}

export async function getT<N extends Namespace>(ns: N, locale?: Locale): Promise<Translator<N>> {
  const l = locale ?? (await getLocale());
  return createTranslator(l, await getMessagesFor(l), ns);
}

export async function getFormat(locale?: Locale): Promise<Format> {
  return createFormat(locale ?? (await getLocale()));
}
