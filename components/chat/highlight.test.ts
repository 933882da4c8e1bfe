import { describe, expect, it } from "vitest";
import { grammarOf, highlight } from "./highlight";

describe("highlight", () => {
  it("colours known languages for both colour schemes, keeping the text exactly", async () => {
    const code = "const answer: number = 42;\n\n// done";
    const lines = await highlight(code, "ts");
    expect(lines).toHaveLength(3);
    expect(lines?.map((line) => line.map((t) => t.content).join("")).join("\n")).toBe(code);
    const keyword = lines?.[0]?.find((t) => t.content.trim() === "const");
    expect(keyword?.color).toMatch(/^light-dark\(#[0-9a-f]{6}, #[0-9a-f]{6}\)$/i);
  });

  it("knows common names and aliases, and leaves other languages plain", async () => {
    expect(grammarOf("Python")).toBe("python");
    expect(grammarOf("sh")).toBe("bash");
    expect(grammarOf("brainfuck")).toBeNull();
    expect(await highlight("+[-]", "brainfuck")).toBeNull();
  });
});
