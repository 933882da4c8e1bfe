import type { ModelInfo } from "./types";

export function ChatHeader({ modelInfo }: { modelInfo: ModelInfo }) {
  return (
    <header className="flex items-center justify-between border-b border-zinc-200 bg-white px-4 py-2 text-sm">
      <span className="text-zinc-500">
        Model: <span className="font-medium text-zinc-800">{modelInfo.model}</span>
        {modelInfo.offline && (
          <span
            className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800"
            data-testid="offline-badge"
            title="No OPENAI_API_KEY is set: answers come from Recall's built-in offline model, which only knows what the context sends it."
          >
            offline model
          </span>
        )}
      </span>
    </header>
  );
}
