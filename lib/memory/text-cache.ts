/**
 * What was worked out from texts (token counts, terms), keyed by the texts themselves, oldest out first once it holds
 * `entries` texts or `chars` characters of them (a Map keeps insertion order). A text longer than `chars` is not
 * kept. Bounded in characters because the keys are what users send: a few thousand long pastes would otherwise keep
 * hundreds of megabytes alive.
 */
export class TextCache<V> {
  private readonly map = new Map<string, V>();
  private held = 0;

  constructor(
    private readonly entries: number,
    private readonly chars: number,
  ) {}

  get(text: string): V | undefined {
    return this.map.get(text);
  }

  set(text: string, value: V): void {
    if (this.map.has(text)) this.drop(text);
    if (text.length > this.chars) return;
    while (this.map.size > 0 && (this.map.size >= this.entries || this.held + text.length > this.chars)) {
      this.drop(this.map.keys().next().value as string);
    }
    this.map.set(text, value);
    this.held += text.length;
  }

  /** The value kept for `text`, else `compute(text)`, kept (as `set` keeps it). */
  getOrSet(text: string, compute: (text: string) => V): V {
    let value = this.map.get(text);
    if (value === undefined) {
      value = compute(text);
      this.set(text, value);
    }
    return value;
  }

  /** Texts kept and their characters in all. */
  get size(): { entries: number; chars: number } {
    return { entries: this.map.size, chars: this.held };
  }

  private drop(text: string): void {
    this.map.delete(text);
    this.held -= text.length;
  }
}
