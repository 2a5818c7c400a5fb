// Checks every operation makes before it touches anything: the project exists, and the item it names
// belongs to that project (an id from another project is refused as if it did not exist).
import type { ItemRecord, Task } from '../../../shared/domain';
import { invalidInput, notFound } from '../base/errors';
import { ensureAnnotator, findAnnotator, SOURCE_ANNOTATOR, type AnnotatorRow } from '../store/annotators';
import type { Db } from '../store/db';
import { getItem, itemProjectName } from '../store/items';
import { storedRevision } from '../store/labelMerge';
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

/**
 * A revision id names one label: the client makes it, and a retried save sends it again. An id already
 * stored for another project, item, task or annotator is refused (saving would answer with someone
 * else's revision and store nothing); the same item, task and annotator is a retry, answered with the
 * stored revision. Call inside the save's write transaction, before appending.
 */
export function requireOwnRevisionId(db: Db, id: string | undefined, label: { projectId: number; itemId: number; annotatorId: number; task: Task }): void {
  if (id === undefined) return;
  const stored = storedRevision(db)(id);
  if (!stored) return;
  if (stored.itemId === label.itemId && stored.annotatorId === label.annotatorId && stored.task === label.task) return;
  const where = !getItem(db, label.projectId, stored.itemId)
    ? 'in another project'
    : stored.itemId !== label.itemId
      ? `on item ${stored.itemId}`
      : stored.task !== label.task
        ? `for a ${stored.task} judgement`
        : 'by another annotator';
  throw invalidInput(`Revision id ${id} is already used by another label (${where}); a new label needs a new id. Nothing was saved.`);
}
