// The old module's names, for scripts/bench until it imports lib/llm/wire and lib/llm/demo itself.
export { demoReply as offlineReply } from "./demo";
export { chunkReply } from "./wire";
