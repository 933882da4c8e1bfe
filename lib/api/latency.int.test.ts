import { afterAll, expect, it } from "vitest";
import { POST as chatCompletionsPost } from "@/app/v1/chat/completions/route";
import { answerOf, createUserWithSession, drain } from "@/lib/chat/test-helpers";
import { startTurn } from "@/lib/chat/turn";
import { createApiKey } from "@/lib/db/api-keys";
import { db } from "@/lib/db/client";
import { getSessionUser } from "@/lib/db/users";
import { limits } from "@/lib/rate-limit";

// Issue 15's bench: an API turn (/v1/chat/completions handler: key lookup, rate limit, wire-format adapter) against
// a web turn (what POST /api/sessions/:id/messages does: the signed-in user's read, the rate limit, startTurn
// drained), same conversation length, same offline model, in one process. Figures only —
// printed, not asserted (timings on a shared machine are not a pass/fail signal).

afterAll(async () => {
  await db.$disconnect();
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

it("measures an API turn against a web turn", async () => {
  const web = await createUserWithSession(db, "bench web");
  const viaApi = await createUserWithSession(db, "bench api");
  const { key } = await createApiKey({ userId: viaApi.userId, name: "bench" });
  const N = 15;
  const webMs: number[] = [];
  const apiMs: number[] = [];
  for (let i = 0; i < N; i++) {
    let t = performance.now();
    // What the web route does around startTurn: requireUser's user read, the turn rate limit.
    await getSessionUser({ id: web.userId, sid: null });
    await limits().assertTurnAllowed(web.userId);
    const events = await drain(
      await startTurn({ sessionId: web.sessionId, userId: web.userId, input: { content: `question ${i}` } }),
    );
    webMs.push(performance.now() - t);
    expect(answerOf(events).length).toBeGreaterThan(0);

    t = performance.now();
    const res = await chatCompletionsPost(
      new Request("http://127.0.0.1/v1/chat/completions", {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "x-recall-session": viaApi.sessionId,
        },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: `question ${i}` }] }),
      }),
      { params: Promise.resolve({}) },
    );
    const body = (await res.json()) as { choices: { finish_reason: string }[] };
    apiMs.push(performance.now() - t);
    expect(body.choices[0]?.finish_reason).toBe("stop");
  }
  // Drop the first (warm-up) pair.
  const w = median(webMs.slice(1));
  const a = median(apiMs.slice(1));
  console.log(
    `[bench] median of ${N - 1} turns: web ${w.toFixed(1)} ms, API ${a.toFixed(1)} ms, ratio ${(a / w).toFixed(2)}`,
  );
});
