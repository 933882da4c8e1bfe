import compile from "icu-minify/compile";
import { describe, expect, it } from "vitest";
import { compileMessages } from "./compile";
import { LOCALES } from "./config";
import { catalogs, loadMessages, NAMESPACES } from "./messages";
import { createTranslator, flattenMessages } from "./translate";

// ICU arguments a message uses: {name}, {n, plural, …}, <tag>…</tag>. Both languages must take the same ones.
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  let i = 0;
  const space = () => {
    while (/\s/.test(message[i] ?? "")) i++;
  };
  const word = () => {
    const start = i;
    while (i < message.length && !/[\s,{}]/.test(message[i] as string)) i++;
    return message.slice(start, i);
  };
  // Text up to the closing brace of its case (or the end); each `{` in it opens an argument.
  const text = () => {
    while (i < message.length && message[i] !== "}") {
      if (message[i] === "'") i = message.indexOf("'", i + 1) + 1 || message.length;
      else if (message[i++] === "{") argument();
    }
  };
  // After `{`: `name}`, `name, type}` or `name, plural|select|selectordinal, key {text} …}`.
  const argument = () => {
    space();
    const name = word();
    if (name) names.add(name);
    space();
    if (message[i] === ",") {
      i++;
      space();
      const type = word();
      space();
      if (["plural", "select", "selectordinal"].includes(type) && message[i] === ",") {
        i++;
        for (space(); i < message.length && message[i] !== "}"; space()) {
          word();
          space();
          if (message[i] !== "{") break;
          i++;
          text();
          i++;
        }
      } else {
        while (i < message.length && message[i] !== "}") i++;
      }
    }
    i++;
  };
  text();
  for (const m of message.matchAll(/<([A-Za-z_][\w]*)>/g)) names.add(`<${m[1]}>`);
  return [...names].sort();
}

describe("message catalogs", () => {
  it("reads a message's arguments, not the texts of its cases", () => {
    expect(
      argumentsOf("{change, select, created {Learned} other {Changed by {who}}} <link>{title}</link>"),
    ).toEqual(["<link>", "change", "title", "who"]);
    expect(argumentsOf("{n, plural, one {# fact} other {# facts}} at {when, date, short}")).toEqual([
      "n",
      "when",
    ]);
  });

  it("registers every namespace in every locale", () => {
    for (const locale of LOCALES)
      expect(Object.keys(catalogs[locale]).sort()).toEqual([...NAMESPACES].sort());
  });

  for (const ns of NAMESPACES) {
    it(`${ns}: same keys and arguments in every locale, every string a valid ICU message`, async () => {
      const [en, ...others] = await Promise.all(
        LOCALES.map(async (l) => flattenMessages((await catalogs[l][ns]()).default)),
      );
      expect(Object.keys(en ?? {}).length).toBeGreaterThan(0);
      for (const [i, other] of others.entries()) {
        const locale = LOCALES[i + 1];
        expect(Object.keys(other).sort(), `${locale}/${ns}.json keys`).toEqual(Object.keys(en ?? {}).sort());
        for (const [key, text] of Object.entries(en ?? {}))
          expect(argumentsOf(other[key] ?? ""), `${locale} ${ns}.${key}`).toEqual(argumentsOf(text));
      }
      for (const messages of [en, ...others])
        for (const [key, text] of Object.entries(messages ?? {})) {
          expect(text.trim(), `${ns}.${key} is empty`).not.toBe("");
          expect(() => compile(text), `${ns}.${key}: ${text}`).not.toThrow();
        }
    });
  }
});

describe("translator", () => {
  it("formats plurals and numbers in each language", async () => {
    const plural = "{count, plural, one {# chat} other {# chats}}";
    const en = createTranslator("en", compileMessages({ errors: { generic: plural } }), "errors");
    expect(en("generic", { count: 1234 })).toBe("1,234 chats");
    expect(en("generic", { count: 1 })).toBe("1 chat");
    const zh = compileMessages(await loadMessages("zh-CN"));
    const t = createTranslator("zh-CN", zh, "common");
    expect(t("theme.dark")).toBe("深色");
  });

  it("falls back for run-time keys that do not exist", async () => {
    const t = createTranslator("zh-CN", compileMessages(await loadMessages("zh-CN")), "errors");
    expect(t.dynamic("codes.rate_limited", "x")).toMatch(/频繁/);
    expect(t.dynamic("codes.no_such_code", "server said so")).toBe("server said so");
  });
});
