// The composer is the one place a chat page's focus comes back to: on load, on New chat, after each answer and
// from the "/" or Ctrl+K shortcut. Found by id so any component can send focus there without threading a ref.

export const COMPOSER_ID = "composer";

export function focusComposer() {
  const input = document.getElementById(COMPOSER_ID);
  if (input instanceof HTMLTextAreaElement) {
    input.focus();
    const end = input.value.length;
    input.setSelectionRange(end, end);
  }
}

/** True when nothing in particular holds focus (the page body), or the composer itself does. */
export function focusIsFree(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active.id === COMPOSER_ID;
}
