// Each screen's total for the header, and each project's shapes and progress per task: the compare screen
// walks pairs, the rank screen items of three or more responses, the verdict and step screens single
// responses (the step screen counts a pair's responses rated step by step too). Counting shapes reads every
// item, so a large project counts on a task worker (until then the header shows the project's size, and
// where it opens is judged by its first thousand items), and the counts are kept until an import changes
// the visible items. One instance per database, shared by the features that ask.
import { openingScreen, projectTasks, type OpeningScreen, type ProjectOverview, type ProjectShapes } from '../../../shared/api';
import type { Task } from '../../../shared/domain';
import { visibleSeqOf } from '../store/items';
import { summarize, type ProjectRow } from '../store/projects';
import { labeledByTask, leadingShapes, POSITION_BLOCK, projectShapes, shapeBlocks, shapeCountBetween, stepsOnMultiResponseItems, type Shape } from '../store/shapes';
import type { Db } from '../store/db';
import { runTask } from '../tasks/run';
import type { ServiceContext } from './context';
import { projectImageCount } from '../store/images';
import { importFormats } from '../store/imports';

/** Projects up to this size are counted on the spot (a few milliseconds). */
const COUNT_INLINE = 50_000;

interface Entry {
  visibleSeq: number;
  shapes?: ProjectShapes;
  /** Items of two or more responses with human step labels, as of `stepsLabeled` items with step labels. */
  stepsOnOthers?: { stepsLabeled: number; count: number };
  /** Items of each shape before each block of seqs, read on the first position asked (store/shapes.ts shapeBlocks). */
  blocks?: Record<Shape, Int32Array>;
}

/** Where an item stands on its screen: its place among the items that screen walks, in file order, and their number. */
export interface ScreenPlace {
  position: number;
  total: number;
}

export interface ScreenTotals {
  (project: ProjectRow, task: Task): number;
  shapes(project: ProjectRow): ProjectShapes | undefined;
  overview(project: ProjectRow): ProjectOverview;
  /**
   * An item's place on the screen of its shape (pairs on Compare, three or more on Rank, single responses
   * on Verdict, or on Steps when `task` says so), counted among that screen's items, not the project's.
   */
  place(project: ProjectRow, item: { seq: number; responses: number }, task?: Task): ScreenPlace;
}

const shapeOf = (responses: number): Shape => (responses === 1 ? 'single' : responses === 2 ? 'pairs' : 'ranked');
const TASK_OF_SHAPE: Record<Shape, Task> = { pairs: 'pairwise', ranked: 'ranking', single: 'verdict' };

const instances = new WeakMap<Db, ScreenTotals>();

export function screenTotals(context: ServiceContext): ScreenTotals {
  const known = instances.get(context.db);
  if (known) return known;
  const made = makeScreenTotals(context);
  instances.set(context.db, made);
  return made;
}

function makeScreenTotals({ db, jobs, options }: ServiceContext): ScreenTotals {
  const cache = new Map<number, Entry>();
  const entryOf = (project: ProjectRow): Entry => {
    const visibleSeq = visibleSeqOf(db, project.id);
    const cached = cache.get(project.id);
    if (cached && cached.visibleSeq === visibleSeq) return cached;
    const entry: Entry = { visibleSeq };
    cache.set(project.id, entry);
    if (project.item_count <= COUNT_INLINE) entry.shapes = projectShapes(db, project.id);
    else {
      const task = { kind: 'shapeCounts' as const, project: project.name };
      jobs.runTask({ dbPath: options.dbPath, task, inline: () => runTask(db, task) as Promise<ProjectShapes> }).then(
        (counts) => (entry.shapes = counts as ProjectShapes),
        () => cache.delete(project.id),
      );
    }
    return entry;
  };
  /** The step screen's extra items: only a project with items of two or more responses has any. */
  const stepsOnOthers = (project: ProjectRow, entry: Entry, stepsLabeled: number): number => {
    const shapes = entry.shapes;
    if (!shapes || shapes.pairs + shapes.ranked === 0 || stepsLabeled === 0) return 0;
    if (entry.stepsOnOthers?.stepsLabeled !== stepsLabeled) entry.stepsOnOthers = { stepsLabeled, count: stepsOnMultiResponseItems(db, project.id) };
    return entry.stepsOnOthers.count;
  };
  const total = (project: ProjectRow, task: Task): number => {
    const entry = entryOf(project);
    const counts = entry.shapes;
    if (!counts) return project.item_count;
    if (task === 'pairwise') return counts.pairs;
    if (task === 'ranking') return counts.ranked;
    if (task === 'verdict') return counts.single;
    if (task === 'steps') return counts.single + stepsOnOthers(project, entry, labeledByTask(db, project.id).steps ?? 0);
    return project.item_count;
  };
  const overview = (project: ProjectRow): ProjectOverview => {
    const entry = entryOf(project);
    const labeled = labeledByTask(db, project.id);
    const shapes = entry.shapes ?? null;
    const tasks = projectTasks(shapes, labeled, stepsOnOthers(project, entry, labeled.steps ?? 0));
    const opensOn: OpeningScreen = project.item_count === 0 ? 'datasets' : openingScreen(shapes ?? leadingShapes(db, project.id));
    return { ...summarize(db, project), shapes, tasks, opensOn, images: projectImageCount(db, project.id), formats: importFormats(db, project.id) };
  };
  const place = (project: ProjectRow, item: { seq: number; responses: number }, task?: Task): ScreenPlace => {
    const entry = entryOf(project);
    const shape = shapeOf(item.responses);
    const screenTotal = total(project, shape === 'single' && task === 'steps' ? 'steps' : TASK_OF_SHAPE[shape]);
    // A project of one shape (most large ones) numbers its items as the file does: nothing to count. A large
    // project not counted yet numbers them in the file too, over its size, as the header counts until then.
    if (!entry.shapes || entry.shapes[shape] === entry.visibleSeq) return { position: item.seq + 1, total: screenTotal };
    entry.blocks ??= shapeBlocks(db, project.id);
    const block = Math.floor(item.seq / POSITION_BLOCK);
    const before = (entry.blocks[shape][block] ?? 0) + shapeCountBetween(db, project.id, shape, block * POSITION_BLOCK, item.seq);
    return { position: before + 1, total: screenTotal };
  };
  return Object.assign(total, { shapes: (project: ProjectRow) => entryOf(project).shapes, overview, place });
}

/** A project's overview counted on the spot, for the CLI (it has no host thread to keep free). */
export function overviewNow(db: Db, project: ProjectRow): ProjectOverview {
  const shapes = projectShapes(db, project.id);
  const labeled = labeledByTask(db, project.id);
  const others = shapes.pairs + shapes.ranked > 0 && (labeled.steps ?? 0) > 0 ? stepsOnMultiResponseItems(db, project.id) : 0;
  const opensOn = project.item_count === 0 ? 'datasets' : openingScreen(shapes);
  return { ...summarize(db, project), shapes, tasks: projectTasks(shapes, labeled, others), opensOn, images: projectImageCount(db, project.id), formats: importFormats(db, project.id) };
}
