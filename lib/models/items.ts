import type { MemoryItem } from "@/lib/memory";

/** The items as a model sees them: a model without vision is sent no images (the text stays). */
export function visibleItems(spec: { vision: boolean }, items: MemoryItem[]): MemoryItem[] {
  if (spec.vision || !items.some((i) => i.imageUrls?.length)) return items;
  return items.map((i) => {
    if (!i.imageUrls) return i;
    const { imageUrls: _images, ...rest } = i;
    return rest;
  });
}
