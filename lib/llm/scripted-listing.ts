// The scripted test model's reply format (docs/decisions/022-test-model.md): one header line, then one line per
// message it received, in order. No imports: the e2e tests read it with `parseListing`.
//
//   scripted: 4 received · tools remember,forget
//   1 system: You are Recall, a helpful assistant.
//   2 system [Long-term memory]: facts the user asked you to remember … ⏎ - [f1] My favourite colour is teal
//   3 user: What is my favourite colour? +1 image
//   4 assistant → remember {"fact":"…"}
//
// Newlines inside a message are shown as " ⏎ ". An assistant message shows only its first line (its own earlier
// listing's header), so listings never nest.

export interface ListingEntry {
  /** Position in the request, from 1. */
  index: number;
  role: string;
  /** For a system message whose first line starts with a short "Name:" heading: the name. */
  section?: string;
  text: string;
}

export interface Listing {
  received: number;
  tools: string[];
  entries: ListingEntry[];
}

const LISTING_HEAD = "scripted:";
const NEWLINE_MARK = " ⏎ ";

export function formatListing(listing: Listing): string {
  const tools = listing.tools.length ? ` · tools ${listing.tools.join(",")}` : "";
  const lines = listing.entries.map((e) => {
    const section = e.section ? ` [${e.section}]` : "";
    const text = e.text.replaceAll(/\r?\n/g, NEWLINE_MARK);
    return `${e.index} ${e.role}${section}${text.startsWith("→") ? " " : ": "}${text}`;
  });
  return [`${LISTING_HEAD} ${listing.received} received${tools}`, ...lines].join("\n");
}

const HEAD = /^scripted: (\d+) received(?: · tools (\S+))?$/;
const LINE = /^(\d+) (\w+)(?: \[([^\]]+)\])?(?:: | )([\s\S]*)$/;

/** Reads a listing back; null when `text` is not one. */
export function parseListing(text: string): Listing | null {
  const [head, ...lines] = text.split("\n");
  const h = HEAD.exec(head ?? "");
  if (!h) return null;
  const entries: ListingEntry[] = [];
  for (const line of lines) {
    const m = LINE.exec(line);
    if (!m) return null;
    entries.push({
      index: Number(m[1]),
      role: m[2] ?? "",
      ...(m[3] ? { section: m[3] } : {}),
      text: m[4] ?? "",
    });
  }
  return { received: Number(h[1]), tools: h[2] ? h[2].split(",") : [], entries };
}
