// What an import summary says besides its counts, in sentences for the CLI and the app alike: items that
// share an external id (imported all the same: ids are the file's), items holding images (how many images
// were stored, new or already in the image store), and images that are not available offline (http URLs,
// kept and never fetched).
import type { ImportSummary, NamedCount } from './domain';
import { plural } from './plural';

/** Characters of a name a note shows: an external id is the file's own text, of any length. */
const NAME_MAX = 60;
/** A name as a note shows it: past NAME_MAX characters cut (never inside a surrogate pair) and marked "…". */
function shortName(name: string): string {
  if (name.length <= NAME_MAX) return name;
  const cut = /[\ud800-\udbff]/.test(name[NAME_MAX - 1]!) ? NAME_MAX - 1 : NAME_MAX;
  return `${name.slice(0, cut)}…`;
}
/** The first few names, and "…" when there are more: an item per name (images), or a name per group of items (ids). */
const named = (count: NamedCount, more: boolean) => `${count.examples.map(shortName).join(', ')}${more ? ', …' : ''}`;
/** How many names the core gives at most (formats/import/importer.ts EXAMPLES). */
const EXAMPLES = 5;

export function importNotes(summary: Pick<ImportSummary, 'sharedIds' | 'images'> & Partial<Pick<ImportSummary, 'imageFiles' | 'videoFiles' | 'imagesOffline'>>): string[] {
  const notes: string[] = [];
  if (summary.sharedIds.items)
    notes.push(`${plural(summary.sharedIds.items, 'new item has', 'new items have')} an external id that another item of the project also has (${named(summary.sharedIds, summary.sharedIds.examples.length >= EXAMPLES)}); all were imported, as different items.`);
  if (summary.images.items) {
    const files = summary.imageFiles ?? { added: 0, kept: 0 };
    const stored = files.added + files.kept;
    const videos = summary.videoFiles ?? 0;
    const what = videos === 0 ? 'images' : stored === 0 ? 'videos' : 'images and videos';
    const held = `${plural(summary.images.items, 'new item holds', 'new items hold')} ${what} (${named(summary.images, summary.images.items > summary.images.examples.length)})`;
    const kept = [stored ? `${plural(stored, 'image')} stored (${storedHow(files)})` : '', videos ? `${plural(videos, 'video')} stored` : ''].filter(Boolean);
    notes.push(kept.length ? `${held}: ${kept.join('; ')}.` : `${held}.`);
  }
  const offline = summary.imagesOffline;
  if (offline?.items)
    notes.push(
      `${plural(offline.items, 'new item has', 'new items have')} an image that is not available offline (${named(offline, offline.items > offline.examples.length)}): an http(s) URL, kept and never fetched; it shows as “not available offline”.`,
    );
  return notes;
}

/** "all new", "all already in the image store", or "2 new, 1 already in the image store". */
function storedHow(files: { added: number; kept: number }): string {
  if (!files.kept) return files.added === 1 ? 'new' : 'all new';
  if (!files.added) return files.kept === 1 ? 'already in the image store' : 'all already in the image store';
  return `${files.added.toLocaleString()} new, ${files.kept.toLocaleString()} already in the image store`;
}
