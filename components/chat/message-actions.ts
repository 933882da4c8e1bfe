/** A message's small actions: always shown (no hover needed on touch screens), reachable with Tab. */
export const ACTION =
  "-my-1 rounded px-1 py-1 underline-offset-2 hover:text-zinc-900 hover:underline focus-visible:outline-2 focus-visible:outline-zinc-900 disabled:cursor-not-allowed disabled:no-underline disabled:opacity-50";
