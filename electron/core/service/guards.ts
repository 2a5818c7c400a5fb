// Checks every operation makes before it touches anything: the project exists, and the item it names
// belongs to that project (an id from another project is refused as if it did not exist).
import type { ItemRecord } from '../../../shared/domain';
import { invalidInput, notFound } from '../errors';
import { ensureAnnotator, findAnnotator, SOURCE_ANNOTATOR, type AnnotatorRow } from '../store/annotators';
import type { Db } from '../store/db';
import { getItem, itemProjectName } from '../store/items';
import { requireProject as findRequired, type ProjectRow } from '../store/projects';

export function requireProject(db: Db, name: string): ProjectRow {
  return findRequired(db, name);
}

export function requireItem(db: Db, project: ProjectRow, itemId: number): ItemRecord {
  const item = getItem(db, project.id, itemId);
  if (!item) throw notFound(itemNotInProject(db, project, itemId));
  return item;
}

/** Says where the item is instead (a link from another project, say), or that there is no such item. */
function itemNotInProject(db: Db, project: ProjectRow, itemId: number): string {
  const owner = itemProjectName(db, itemId);
  const pick = `Pick an item from the list of “${project.name}”.`;
  if (owner && owner !== project.name) return `Item ${itemId} is not in the project “${project.name}”: it belongs to “${owner}”. Open “${owner}” to see it, or ${pick.charAt(0).toLowerCase()}${pick.slice(1)}`;
  return `The project “${project.name}” has no item ${itemId} (it may have been removed). ${pick}`;
}

/**
 * The person a label from the app is by, made on first use (call inside a write transaction). The
 * `source` name is the file's own, and a model annotator's name is not a person's.
 */
export function requireHumanAnnotator(db: Db, name: string): AnnotatorRow {
  if (name === SOURCE_ANNOTATOR) throw invalidInput(`"${SOURCE_ANNOTATOR}" is reserved for judgements a file carried.`);
  const row = findAnnotator(db, name) ?? ensureAnnotator(db, name, 'human');
  if (row.kind !== 'human') throw invalidInput(`"${name}" is a ${row.kind} annotator; labels from the app are a person's.`);
  return row;
}
