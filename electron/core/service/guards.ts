// Checks every operation makes before it touches anything: the project exists, and the item it names
// belongs to that project (an id from another project is refused as if it did not exist).
import type { ItemRecord } from '../../../shared/domain';
import { notFound } from '../errors';
import type { Db } from '../store/db';
import { getItem } from '../store/items';
import { requireProject as findRequired, type ProjectRow } from '../store/projects';

export function requireProject(db: Db, name: string): ProjectRow {
  return findRequired(db, name);
}

export function requireItem(db: Db, project: ProjectRow, itemId: number): ItemRecord {
  const item = getItem(db, project.id, itemId);
  if (!item) throw notFound(`Project "${project.name}" has no item ${itemId}. Open the item from this project's list.`);
  return item;
}
