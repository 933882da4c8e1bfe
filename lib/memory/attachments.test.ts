import { describe, expect, it } from "vitest";
import {
  attachmentRef,
  isAttachmentRef,
  parseAttachmentRef,
  splitAttachedFiles,
  withAttachedFiles,
} from "./attachments";
import { restore, snapshot } from "./snapshot";

describe("attachment references", () => {
  it("carry the id and the size, and read back", () => {
    const ref = attachmentRef({ id: "cm1abc", width: 640, height: 480 });
    expect(ref).toBe("attachment:cm1abc?w=640&h=480");
    expect(isAttachmentRef(ref)).toBe(true);
    expect(parseAttachmentRef(ref)).toEqual({ id: "cm1abc", width: 640, height: 480 });
  });

  it("may omit the size", () => {
    expect(attachmentRef({ id: "x1" })).toBe("attachment:x1");
    expect(parseAttachmentRef("attachment:x1")).toEqual({ id: "x1" });
    expect(parseAttachmentRef("attachment:x1?w=0&h=5")).toEqual({ id: "x1" });
  });

  it("are not other URLs, and malformed ones are null", () => {
    expect(parseAttachmentRef("https://example.test/a.png")).toBeNull();
    expect(parseAttachmentRef("data:image/png;base64,AAAA")).toBeNull();
    expect(parseAttachmentRef("attachment:")).toBeNull();
    expect(parseAttachmentRef("attachment:../etc?w=1&h=1")).toBeNull();
    expect(() => attachmentRef({ id: "a/b" })).toThrow(RangeError);
  });

  it("survive snapshot and restore unchanged (the snapshot holds the reference, never bytes)", () => {
    const ref = attachmentRef({ id: "cm1abc", width: 3000, height: 2000 });
    const items = [{ role: "user" as const, text: "look", imageUrls: [ref], seq: 1 }];
    expect(restore(JSON.parse(JSON.stringify(snapshot(items))))).toEqual(items);
  });
});

describe("attached text files", () => {
  it("are appended to the message between marker lines and split back", () => {
    const files = [
      { name: "notes.md", text: "# Title\n\nbody" },
      { name: "data.csv", text: "a,b\n1,2" },
    ];
    const text = withAttachedFiles("Summarize these", files);
    expect(text).toBe(
      "Summarize these\n\n--- Attached file: notes.md ---\n# Title\n\nbody\n--- End of notes.md ---\n\n" +
        "--- Attached file: data.csv ---\na,b\n1,2\n--- End of data.csv ---",
    );
    expect(splitAttachedFiles(text)).toEqual({ text: "Summarize these", files });
  });

  it("leave a message without files alone, and work without message text", () => {
    expect(withAttachedFiles("hi", [])).toBe("hi");
    expect(splitAttachedFiles("hi")).toEqual({ text: "hi", files: [] });
    const only = withAttachedFiles("", [{ name: "a.txt", text: "x" }]);
    expect(splitAttachedFiles(only)).toEqual({ text: "", files: [{ name: "a.txt", text: "x" }] });
  });
});
