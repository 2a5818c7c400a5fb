// What an import summary says besides its counts, in sentences for the CLI and the app alike: items that
// share an external id (imported all the same: ids are the file's), and items holding images (kept, not
// shown yet, and left out of text-format exports only when asked).
import type { ImportSummary, NamedCount } from './domain';
import { plural } from './plural';

/** The first few names, and "…" when there are more: an item per name (images), or a name per group of items (ids). */
const named = (count: NamedCount, more: boolean) => `${count.examples.join(', ')}${more ? ', …' : ''}`;
/** How many names the core gives at most (formats/import/importer.ts EXAMPLES). */
const EXAMPLES = 5;

export function importNotes(summary: Pick<ImportSummary, 'sharedIds' | 'images'>): string[] {
  const notes: string[] = [];
  if (summary.sharedIds.items)
    notes.push(`${plural(summary.sharedIds.items, 'new item has', 'new items have')} an external id that another item of the project also has (${named(summary.sharedIds, summary.sharedIds.examples.length >= EXAMPLES)}); all were imported, as different items.`);
  if (summary.images.items) notes.push(`${plural(summary.images.items, 'item holds', 'items hold')} images, which are kept but not shown yet (${named(summary.images, summary.images.items > summary.images.examples.length)}).`);
  return notes;
}
