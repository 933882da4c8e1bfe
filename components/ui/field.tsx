import type { ComponentProps } from "react";

export function Field({ label, id, ...props }: ComponentProps<"input"> & { label: string; id: string }) {
  return (
    <label htmlFor={id} className="block text-sm font-medium text-zinc-700">
      {label}
      <input
        id={id}
        {...props}
        className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-zinc-900 focus:outline-none focus:ring-1 focus:ring-zinc-900"
      />
    </label>
  );
}
