// The application service: the one object that implements shared/api.ts. Transports (IPC, HTTP, the
// CLI) validate input against the contract's schemas and call `dispatch`; nothing else touches the store.
import { EventEmitter } from 'node:events';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { API_NAMES, schemas, type ApiName, type ApiOutput, type ApiOutputs, type ApiParsed, type ItemView } from '../../shared/api';
import type { ItemRecord, LabelRevision } from '../../shared/domain';
import { shownOrder } from '../../shared/order';
import { conflict, invalidInput, notFound } from './errors';
import { previewHead } from './formats/index';
import { exportsDir } from './paths';
import { ensureAnnotator, findAnnotator, SOURCE_ANNOTATOR } from './store/annotators';
import type { Db } from './store/db';
import { countItems, getItem, getItemBySeq, neighbourItem } from './store/items';
import { currentLabel, currentLabelsOfKind, getRevision, history, labelAppender } from './store/labels';
import * as projects from './store/projects';
import { projectStats } from './stats';
import { listItemRows } from './itemList';
import { JobRegistry } from './jobs';
import * as scorer from './scorer/index';
import { runTask } from './tasks/run';

export interface ServiceOptions {
  dbPath: string;
  transport: 'ipc' | 'http';
  version: string;
  defaultAnnotator: string;
}

type Handlers = { [N in ApiName]: (input: ApiParsed<N>) => Promise<ApiOutputs[N]> | ApiOutputs[N] };

export class ArbiterService {
  readonly events = new EventEmitter();
  readonly jobs = new JobRegistry(this.events);
  private readonly handlers: Handlers;

  constructor(
    readonly db: Db,
    readonly options: ServiceOptions,
  ) {
    this.handlers = this.createHandlers();
  }

  /** Validates raw input against the contract, then runs the operation. */
  async dispatch<N extends ApiName>(name: N, rawInput: unknown): Promise<ApiOutput<N>> {
    if (!API_NAMES.includes(name)) throw notFound(`Unknown operation "${String(name)}".`);
    const input = schemas[name].parse(rawInput ?? {}) as ApiParsed<N>;
    const handler = this.handlers[name] as (input: ApiParsed<N>) => Promise<ApiOutput<N>> | ApiOutput<N>;
    return handler(input);
  }

  private itemView(projectId: number, item: ItemRecord, annotator: string): ItemView {
    const annotatorRow = findAnnotator(this.db, annotator);
    const label = annotatorRow ? currentLabel(this.db, item.id, annotatorRow.id) : null;
    const source = currentLabelsOfKind(this.db, item.id, 'source')[0] ?? null;
    return {
      ...item,
      total: countItems(this.db, projectId),
      // Shuffled per annotator and item, deterministically: reopening never flips sides.
      shownOrder: shownOrder(annotator, item.uid, item.responses.length),
      label: label && label.choice !== null ? label : null,
      sourceLabel: source,
    };
  }

  private createHandlers(): Handlers {
    const db = this.db;
    return {
      listProjects: () => projects.listProjects(db),
      createProject: ({ name, guidelines }) => projects.summarize(db, projects.createProject(db, name, guidelines ?? '')),
      getProject: ({ project }) => projects.summarize(db, projects.requireProject(db, project)),
      updateProjectSettings: ({ project, settings }) => projects.updateSettings(db, project, settings),
      previewImport: ({ head, format }) => previewHead(head, format),
      importContent: async ({ project, fileName, content, format, skipInvalid, createProject }) => {
        if (createProject) projects.ensureProject(db, project);
        else projects.requireProject(db, project);
        const sha256 = createHash('sha256').update(content).digest('hex');
        // A worker with its own connection does the work; this thread only awaits it.
        const task = { kind: 'import' as const, project, fileName, content, sha256, format, skipInvalid };
        return this.jobs.runTask({
          dbPath: this.options.dbPath,
          task,
          inline: (hooks) => runTask(db, task, hooks) as Promise<ApiOutputs['importContent']>,
          onProgress: (progress) => {
            if ('linesRead' in progress) this.events.emit('event', { type: 'import', project, linesRead: progress.linesRead });
          },
        });
      },
      listItems: ({ project, offset, limit, annotator }) => listItemRows(db, projects.requireProject(db, project).id, offset, limit, annotator),
      getItem: ({ project, annotator, itemId, seq }) => {
        const row = projects.requireProject(db, project);
        if (itemId === undefined && seq === undefined) throw invalidInput('getItem needs itemId or seq.');
        const item = itemId !== undefined ? getItem(db, row.id, itemId) : getItemBySeq(db, row.id, seq!);
        return item ? this.itemView(row.id, item, annotator) : null;
      },
      nextItem: ({ project, annotator, afterSeq, direction, unlabeledOnly }) => {
        const row = projects.requireProject(db, project);
        const annotatorRow = findAnnotator(db, annotator);
        const start = afterSeq ?? (direction === 'next' ? -1 : Number.MAX_SAFE_INTEGER);
        const item = neighbourItem(db, row.id, start, direction, unlabeledOnly && annotatorRow ? annotatorRow.id : null);
        return item ? this.itemView(row.id, item, annotator) : null;
      },
      saveLabel: (input) => {
        const row = projects.requireProject(db, input.project);
        const item = getItem(db, row.id, input.itemId);
        if (!item) throw notFound(`No item ${input.itemId} in project "${input.project}".`);
        if (input.annotator === SOURCE_ANNOTATOR) throw invalidInput(`"${SOURCE_ANNOTATOR}" is reserved for preferences a file carried.`);
        if (item.responses.length !== 2 && (input.choice === 'A' || input.choice === 'B'))
          throw invalidInput(`Item ${input.itemId} has ${item.responses.length} responses; A/B choices need exactly 2.`);
        const order = input.shownOrder;
        const isPermutation = order.length === item.responses.length && [...order].sort((a, b) => a - b).every((v, i) => v === i);
        if (!isPermutation) throw invalidInput(`shownOrder must list each of the item's ${item.responses.length} response indexes once.`);
        const strength = input.choice === 'A' || input.choice === 'B' ? (input.strength ?? 2) : null;
        const id = db.transaction(() => {
          const annotator = ensureAnnotator(db, input.annotator, 'human');
          return labelAppender(db)({
            itemId: item.id,
            annotatorId: annotator.id,
            choice: input.choice,
            strength,
            shownOrder: order,
            body: {
              ...(input.rationale ? { rationale: input.rationale } : {}),
              ...(input.timeMs !== undefined ? { time_ms: input.timeMs } : {}),
              ...(input.prelabelVisible !== undefined ? { prelabel_visible: input.prelabelVisible } : {}),
            },
          });
        })();
        const saved = getRevision(db, id!);
        this.events.emit('event', { type: 'label', project: input.project, itemId: item.id });
        return saved!;
      },
      saveRationale: ({ project, annotator, itemId, rationale }) => {
        projects.requireProject(db, project);
        const annotatorRow = findAnnotator(db, annotator);
        const current = annotatorRow ? currentLabel(db, itemId, annotatorRow.id) : null;
        if (!annotatorRow || !current || current.choice === null) return null;
        if ((current.body.rationale ?? '') === rationale) return current;
        // A rationale edit is a new revision too: same choice, new text.
        const id = db.transaction(() =>
          labelAppender(db)({
            itemId,
            annotatorId: annotatorRow.id,
            choice: current.choice,
            strength: current.strength,
            ranking: current.ranking,
            shownOrder: current.shownOrder,
            body: { ...current.body, rationale },
          }),
        )();
        return getRevision(db, id!);
      },
      undoLabel: ({ project, annotator, itemId }) => {
        projects.requireProject(db, project);
        const annotatorRow = findAnnotator(db, annotator);
        if (!annotatorRow) return null;
        return this.undo(itemId, annotatorRow.id);
      },
      labelHistory: ({ project, itemId }) => {
        projects.requireProject(db, project);
        return history(db, itemId);
      },
      exportProject: ({ project, format, out, annotator }) => {
        projects.requireProject(db, project);
        const target = out ?? join(exportsDir(), `${project.replace(/[^\w.-]+/g, '_')}-${format}-${Date.now()}.jsonl`);
        const task = { kind: 'export' as const, project, format, out: target, annotator };
        return this.jobs.runTask({
          dbPath: this.options.dbPath,
          task,
          inline: (hooks) => runTask(db, task, hooks) as Promise<ApiOutputs['exportProject']>,
        });
      },
      stats: ({ project }) => projectStats(db, projects.requireProject(db, project)),
      progress: ({ project, annotator }) => {
        const row = projects.requireProject(db, project);
        const me = findAnnotator(db, annotator);
        const labeledByMe = me
          ? (db
              .prepare('SELECT COUNT(*) FROM label_head h JOIN item i ON i.id = h.item_id WHERE h.annotator_id = ? AND i.project_id = ? AND h.choice IS NOT NULL')
              .pluck()
              .get(me.id, row.id) as number)
          : 0;
        return { total: countItems(db, row.id), labeledByMe, labeled: projects.countLabeled(db, row.id) };
      },
      listModels: () => scorer.listModels(db),
      inspectModel: ({ dir }) => scorer.inspectModelFolder(dir),
      addModel: ({ dir, name }) => scorer.addModel(db, dir, name),
      removeModel: ({ modelId }) => {
        // A running job reads the model's row and writes its scores: removing it underneath would fail the job.
        if (this.jobs.list().some((j) => j.kind === 'score' && j.state === 'running')) throw conflict('A scoring job is running; cancel it or let it finish, then remove the model.');
        return { removed: db.prepare('DELETE FROM model WHERE id = ?').run(modelId).changes === 1 };
      },
      providers: () => scorer.availableProviders(),
      startScoring: ({ project, modelIds, provider, batchSize }) => {
        projects.requireProject(db, project);
        const ids = modelIds ?? scorer.listModels(db).map((m) => m.id);
        if (ids.length === 0) throw invalidInput('No models to score with: add a model folder first.');
        return this.jobs.startScoring({ dbPath: this.options.dbPath, project, modelIds: ids, provider, batchSize });
      },
      cancelJob: ({ jobId }) => this.jobs.cancel(jobId),
      listJobs: () => this.jobs.list(),
      prelabels: ({ project, itemId }) => scorer.prelabelsForItem(db, projects.requireProject(db, project).id, itemId),
      appInfo: () => ({
        version: this.options.version,
        transport: this.options.transport,
        dbPath: this.options.dbPath,
        defaultAnnotator: this.options.defaultAnnotator,
        exportsDir: exportsDir(),
      }),
    };
  }

  /**
   * Undo appends a revision equal to the one before the current one (or a clearing revision), so the
   * history keeps every step and undo itself can be undone by labeling again.
   */
  private undo(itemId: number, annotatorId: number): LabelRevision | null {
    return this.db.transaction(() => {
      const revisions = history(this.db, itemId, annotatorId);
      const current = revisions[revisions.length - 1];
      if (!current) return null;
      // Walk back past revisions that merely restored earlier states: the target is the state the
      // current one replaced.
      const previous = findReplacedState(revisions);
      const id = labelAppender(this.db)({
        itemId,
        annotatorId,
        choice: previous?.choice ?? null,
        strength: previous?.strength ?? null,
        ranking: previous?.ranking ?? null,
        shownOrder: previous?.shownOrder ?? current.shownOrder,
        body: { ...(previous?.body ?? {}), undo_of: current.id },
      });
      return getRevision(this.db, id!);
    })();
  }
}

/**
 * Revisions form a stack where an undo revision pops: replaying the list with a stack gives the
 * state the current revision replaced.
 */
function findReplacedState(revisions: LabelRevision[]): LabelRevision | null {
  const stack: LabelRevision[] = [];
  for (const revision of revisions) {
    if (typeof revision.body.undo_of === 'string') stack.pop();
    else stack.push(revision);
  }
  // The stack's top is the current state; the one under it is what undo restores.
  return stack.length >= 2 ? stack[stack.length - 2]! : null;
}
