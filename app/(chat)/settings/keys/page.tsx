import type { Metadata } from "next";
import { ApiKeys } from "@/components/settings/api-keys";

export const metadata: Metadata = { title: "API keys · Recall" };

/** Settings → API keys; the chat layout has already required a signed-in user. */
export default function ApiKeysPage() {
  return (
    <div className="mx-auto w-full max-w-2xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold">API keys</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        Programs that speak the OpenAI API can chat through Recall at <code className="font-mono">/v1</code>{" "}
        with one of these keys, and Recall keeps their conversations’ memory. Only a hash of each key is
        stored.
      </p>
      <ApiKeys />
    </div>
  );
}
