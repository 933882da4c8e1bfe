"use client";

import {
  type ComponentProps,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";

// The chat header's popovers (share, memory, tools, system prompt, export) open below their button and, on a phone,
// span the screen; a click outside closes one, Escape closes it and gives the focus back to its button.

const triggerClass =
  "rounded-md border border-zinc-200 px-2 py-1 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900";

export const headerPanelClass =
  "absolute right-0 z-20 mt-2 max-sm:fixed max-sm:inset-x-2 max-sm:w-auto max-sm:max-w-none rounded-lg border border-zinc-200 bg-white text-sm shadow-lg";

/**
 * Open state and handling of one header popover, for HeaderPopover; spread `panelProps` on the panel.
 * `focusOnOpen` takes the focus each time it opens.
 */
export function useHeaderPopover({
  haspopup,
  focusOnOpen,
}: {
  haspopup: "true" | "dialog";
  focusOnOpen?: RefObject<HTMLElement | null>;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelId = `${id}-panel`;

  useEffect(() => {
    if (!open) return;
    focusOnOpen?.current?.focus();
    const outside = (e: PointerEvent) => {
      if (!wrapperRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open, focusOnOpen]);

  function close({ refocus }: { refocus: boolean }) {
    setOpen(false);
    if (refocus) triggerRef.current?.focus();
  }

  return {
    id,
    open,
    setOpen,
    close,
    wrapperRef,
    triggerProps: {
      ref: triggerRef,
      "aria-haspopup": haspopup,
      "aria-expanded": open,
      "aria-controls": open ? panelId : undefined,
    },
    panelProps: {
      id: panelId,
      // Stopped here: the header's "⋯" row, which also closes on Escape, stays open.
      onKeyDown: (e: KeyboardEvent) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        close({ refocus: true });
      },
    },
  };
}

/**
 * The popover's button (opening and closing it unless `trigger.onClick` says otherwise) and, in `children`, its
 * panel: whatever is inside, a confirmation dialog too, does not count as outside.
 */
export function HeaderPopover({
  popover,
  trigger: { className = "", ...trigger },
  children,
}: {
  popover: ReturnType<typeof useHeaderPopover>;
  trigger: ComponentProps<"button"> & { "data-testid": string };
  children: ReactNode;
}) {
  return (
    <div className="relative" ref={popover.wrapperRef}>
      <button
        {...popover.triggerProps}
        type="button"
        onClick={() => popover.setOpen(!popover.open)}
        {...trigger}
        className={`${triggerClass} ${className}`}
      />
      {children}
    </div>
  );
}
