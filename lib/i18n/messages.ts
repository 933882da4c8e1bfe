// Every message namespace, one line per locale. To add one: create messages/en/<ns>.json and
// messages/zh-CN/<ns>.json (ICU strings, same keys; nesting allowed, keys are then "a.b") and add a line to each
// list below. lib/i18n/messages.test.ts checks both locales have the same keys and that every string parses.
// Loaded on the server only; the browser gets the active locale's messages, compiled, from the root layout.
import type { Locale } from "./config";

const en = {
  common: () => import("@/messages/en/common.json"),
  errors: () => import("@/messages/en/errors.json"),
  memory: () => import("@/messages/en/memory.json"),
  auth: () => import("@/messages/en/auth.json"),
  pages: () => import("@/messages/en/pages.json"),
  admin: () => import("@/messages/en/admin.json"),
  settings: () => import("@/messages/en/settings.json"),
  sidebar: () => import("@/messages/en/sidebar.json"),
  receipt: () => import("@/messages/en/receipt.json"),
  chatMemory: () => import("@/messages/en/chatMemory.json"),
  chat: () => import("@/messages/en/chat.json"),
  attachments: () => import("@/messages/en/attachments.json"),
  tools: () => import("@/messages/en/tools.json"),
  data: () => import("@/messages/en/data.json"),
  search: () => import("@/messages/en/search.json"),
  adminTools: () => import("@/messages/en/adminTools.json"),
  models: () => import("@/messages/en/models.json"),
  instructions: () => import("@/messages/en/instructions.json"),
  share: () => import("@/messages/en/share.json"),
  projectFiles: () => import("@/messages/en/projectFiles.json"),
};

const zhCN = {
  common: () => import("@/messages/zh-CN/common.json"),
  errors: () => import("@/messages/zh-CN/errors.json"),
  memory: () => import("@/messages/zh-CN/memory.json"),
  auth: () => import("@/messages/zh-CN/auth.json"),
  pages: () => import("@/messages/zh-CN/pages.json"),
  admin: () => import("@/messages/zh-CN/admin.json"),
  settings: () => import("@/messages/zh-CN/settings.json"),
  sidebar: () => import("@/messages/zh-CN/sidebar.json"),
  receipt: () => import("@/messages/zh-CN/receipt.json"),
  chatMemory: () => import("@/messages/zh-CN/chatMemory.json"),
  chat: () => import("@/messages/zh-CN/chat.json"),
  attachments: () => import("@/messages/zh-CN/attachments.json"),
  tools: () => import("@/messages/zh-CN/tools.json"),
  data: () => import("@/messages/zh-CN/data.json"),
  search: () => import("@/messages/zh-CN/search.json"),
  adminTools: () => import("@/messages/zh-CN/adminTools.json"),
  models: () => import("@/messages/zh-CN/models.json"),
  instructions: () => import("@/messages/zh-CN/instructions.json"),
  share: () => import("@/messages/zh-CN/share.json"),
  projectFiles: () => import("@/messages/zh-CN/projectFiles.json"),
} satisfies { [N in Namespace]: () => Promise<{ default: unknown }> };

export type Namespace = keyof typeof en;

/** The English files define the shape (keys) of every namespace. */
export type Messages = { [N in Namespace]: Awaited<ReturnType<(typeof en)[N]>>["default"] };

export const catalogs: Record<Locale, { [N in Namespace]: () => Promise<{ default: unknown }> }> = {
  en,
  "zh-CN": zhCN,
};

export const NAMESPACES = Object.keys(en) as Namespace[];

/** A locale's messages as written (nested JSON), every namespace. */
export async function loadMessages(locale: Locale): Promise<Record<Namespace, unknown>> {
  const entries = await Promise.all(
    NAMESPACES.map(async (ns) => [ns, (await catalogs[locale][ns]()).default] as const),
  );
  return Object.fromEntries(entries) as Record<Namespace, unknown>;
}
