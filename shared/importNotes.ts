// What an import summary says besides its counts, in sentences for the CLI and the app alike: items that
// share an external id (imported all the same: ids are the file's), and items holding images (kept, not
// shown yet, and left out of text-format exports only when asked).
import type { ImportSummary, NamedCount } from './domain';
import { plural } from './plural';

const named = (count: NamedCount) => `${count.examples.join(', ')}${count.items > count.examples.length ? ', …' : ''}`;

export function importNotes(summary: Pick<ImportSummary, 'sharedIds' | 'images'>): string[] {
  const notes: string[] = [];
  if (summary.sharedIds.items)
    notes.push(`${plural(summary.sharedIds.items, 'new item has', 'new items have')} an external id that another item of the project also has (${named(summary.sharedIds)}); all were imported, as different items.`);
  if (summary.images.items) notes.push(`${plural(summary.images.items, 'item holds', 'items hold')} images, which are kept but not shown yet (${named(summary.images)}).`);
  return notes;
}
