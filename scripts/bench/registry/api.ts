import { Client } from "../http";
import { turnContent } from "../plan";
import { fmtMs } from "../report";
import { round, summarize } from "../stats";
import { need, workload } from "./types";

interface ApiResult {
  turns: number;
  web: ReturnType<typeof summarize>;
  api: ReturnType<typeof summarize>;
  ratio: number;
}

/**
 * An OpenAI-compatible turn (/v1/chat/completions with an API key: key lookup, rate limit, wire-format adapter)
 * against a web turn (POST /api/sessions/:id/messages as a signed-in user), each in a new conversation of its
 * own, turn by turn, same offline model. A figure, not a target.
 */
export const api = workload<ApiResult>({
  id: "api",
  phase: "main",
  describe: (sizes) => `API: ${sizes.w1Turns} turns over /v1/chat/completions against web turns …`,
  async run(ctx) {
    const server = need(ctx.server, "the server");
    const owner = need(ctx.owner, "the owner");
    const { data: key } = await owner.json<{ key: string }>("POST", "/api/keys", { name: "bench" }, 201);
    const newSession = async (title: string) =>
      (await owner.json<{ session: { id: string } }>("POST", "/api/sessions", { title }, 201)).data.session
        .id;
    const webSession = await newSession("bench web");
    const apiSession = await newSession("bench api");
    const keyClient = new Client(server.url, "api key");
    const web: number[] = [];
    const viaApi: number[] = [];
    // The first pair warms both paths and is not counted.
    for (let i = 0; i <= ctx.sizes.w1Turns; i++) {
      const t = await owner.turn(webSession, turnContent("API bench", i));
      const res = await keyClient.request("POST", "/v1/chat/completions", {
        headers: { authorization: `Bearer ${key.key}`, "x-recall-session": apiSession },
        json: { messages: [{ role: "user", content: turnContent("API bench", i) }] },
      });
      const body = JSON.parse(res.body) as { choices?: { finish_reason?: string }[] };
      if (res.status !== 200 || body.choices?.[0]?.finish_reason !== "stop") {
        throw new Error(`/v1/chat/completions: HTTP ${res.status} ${res.body.slice(0, 300)}`);
      }
      if (i === 0) continue;
      web.push(t.totalMs);
      viaApi.push(res.ms);
    }
    const w = summarize(web);
    const a = summarize(viaApi);
    return { turns: web.length, web: w, api: a, ratio: a.median / w.median };
  },
  render: (r) => [
    "",
    `API turn vs web turn — ${r.turns} turns each in a new conversation, alternating; request → whole answer`,
    `  /v1/chat/completions median ${fmtMs(r.api.median)} (p90 ${fmtMs(r.api.p90)}), web median ${fmtMs(r.web.median)} (p90 ${fmtMs(r.web.p90)}): ${round(r.ratio)}×`,
  ],
});
