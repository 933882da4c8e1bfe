import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { scriptedAnswer } from "@/lib/llm/scripted";
import { createModelFetch } from "@/lib/llm/wire";

// An OpenAI-compatible server on a loopback port for tests: the scripted offline model's wire handler, served over
// HTTP, recording each request body and the Authorization header it came with, so a test can tell which provider a
// turn reached and what it was sent.

export interface TestProvider {
  /** The base URL to configure (`…/v1`). */
  url: string;
  requests: { path: string; authorization: string | null; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function startTestProvider(name: string): Promise<TestProvider> {
  const handle = createModelFetch(scriptedAnswer, { firstTokenDelayMs: 0, tokenDelayMs: 0 }, name);
  const requests: TestProvider["requests"] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    try {
      requests.push({
        path: req.url ?? "",
        authorization: req.headers.authorization ?? null,
        body: JSON.parse(text || "{}") as Record<string, unknown>,
      });
    } catch {
      requests.push({ path: req.url ?? "", authorization: req.headers.authorization ?? null, body: {} });
    }
    const answer = await handle(`http://127.0.0.1${req.url ?? "/"}`, {
      method: req.method ?? "GET",
      body: text,
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    const reader = answer.body?.getReader();
    for (let r = await reader?.read(); r && !r.done; r = await reader?.read()) res.write(r.value);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
