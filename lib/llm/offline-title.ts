// The title request's format, for lib/chat/auto-title.ts (it is defined with the demo model that reads it).
export * from "./demo/title";
