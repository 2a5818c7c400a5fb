// The tag picker's type-to-filter: the tags whose name holds what was typed (any case), in the
// project's order. The highlight, the digit keys and Enter all count in this shown list.

export function shownTags(tags: readonly string[], filter: string): string[] {
  const wanted = filter.trim().toLowerCase();
  if (!wanted) return [...tags];
  return tags.filter((t) => t.toLowerCase().includes(wanted));
}

/** A key that types into the filter: one printable character, not a digit (digits pick) and not `?` (the shortcuts list). */
export function filterChar(event: KeyboardEvent): string | null {
  if (event.key.length !== 1 || /[0-9?]/.test(event.key)) return null;
  return event.key;
}
