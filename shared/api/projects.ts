// Projects: create, open, rename, delete, settings.
import { z } from 'zod';
import { LABELING_ORDERS, type ProjectSettings, type ProjectSummary, type Task } from '../domain';
import { goldRulesSchema } from '../goldRules';
import { SEGMENTATION_METHODS } from '../segment';
import { annotatorName, projectName } from './common';
import { MAX_SENT } from './review';

export const projectsSchemas = {
  listProjects: z.object({}).strict(),
  createProject: z.object({ name: projectName, guidelines: z.string().max(200_000).optional() }).strict(),
  getProject: z.object({ project: projectName }).strict(),
  updateProjectSettings: z
    .object({
      project: projectName,
      settings: z
        .object({
          prelabels: z.enum(['blind', 'assist']),
          segmentation: z.enum(SEGMENTATION_METHODS),
          errorTags: z.array(z.string().trim().min(1).max(60)).max(50),
          order: z.enum(LABELING_ORDERS),
          overlap: z.number().int().min(0).max(100),
          team: z.array(annotatorName).max(500).refine((names) => new Set(names).size === names.length, 'a name appears twice in the team'),
          gold: goldRulesSchema,
          /** Items a lead sent to review (service/review.ts sendToReview): checked here as they come from a hub. */
          reviewSent: z.array(z.object({ uid: z.string().min(1).max(200), by: annotatorName, at: z.string().datetime() }).strict()).max(MAX_SENT),
        })
        .partial()
        .strict(),
    })
    .strict(),
  renameProject: z.object({ project: projectName, name: projectName }).strict(),
  /** Deleting asks first in the UI; the database is backed up before the project goes. */
  deleteProject: z.object({ project: projectName, confirm: z.literal(true) }).strict(),
} as const;

/** A project's items by shape: the screens they are labeled on. */
export interface ProjectShapes {
  /** Items with one response (Verdict, Steps). */
  single: number;
  /** Items with two responses (Compare). */
  pairs: number;
  /** Items with three or more responses (Rank). */
  ranked: number;
  /** Single-response items with steps of their own (the file's, or a cut someone rated). */
  chains: number;
}

/** The labeling screens, and Datasets (where an empty project opens, to import). */
export type OpeningScreen = 'compare' | 'rank' | 'steps' | 'verdict' | 'datasets';

/** One task's progress: items with a current human judgement over the items its screen walks. */
export interface TaskCount {
  task: Extract<Task, 'pairwise' | 'ranking' | 'steps' | 'verdict'>;
  labeled: number;
  /** null while a large project's items are still being counted (on a task worker). */
  total: number | null;
}

/** A project with its shapes, its progress per task and the screen it opens on. */
export interface ProjectOverview extends ProjectSummary {
  /** null while a large project is being counted. */
  shapes: ProjectShapes | null;
  tasks: TaskCount[];
  opensOn: OpeningScreen;
  /** Images the project's items hold (stored ones, each counted once). */
  images: number;
  /** The formats its items were imported from (each once; `arbiter` for a hub join): what the export dialog offers. */
  formats: string[];
}

const TASK_WORDS: Record<TaskCount['task'], [string, string]> = {
  pairwise: ['pair', 'pairs'],
  ranking: ['rank', 'ranks'],
  steps: ['steps', 'steps'],
  verdict: ['verdict', 'verdicts'],
};

/** "pairs 3/10 · ranks 1/4 · steps 2/5": one line for the project list, `arbiter projects` and `stats`. */
export function taskLine(tasks: TaskCount[]): string {
  if (!tasks.length) return 'no items';
  return tasks.map((t) => `${TASK_WORDS[t.task][1]} ${t.labeled.toLocaleString('en-US')}/${t.total === null ? '…' : t.total.toLocaleString('en-US')}`).join(' · ');
}

/**
 * The screen a project opens on: the shape most of its items have (ties: pairs, then three or more
 * responses, then single responses); single responses open on Steps when most of them have steps, else on
 * Verdict; an empty project opens on Datasets.
 */
export function openingScreen(shapes: Omit<ProjectShapes, 'chains'> & { chains: number }): OpeningScreen {
  const { pairs, ranked, single, chains } = shapes;
  if (pairs + ranked + single === 0) return 'datasets';
  if (pairs >= ranked && pairs >= single) return 'compare';
  if (ranked >= single) return 'rank';
  return chains * 2 >= single ? 'steps' : 'verdict';
}

/** The tasks a project's list shows: each shape's task, and any task someone has judged. */
export function projectTasks(shapes: ProjectShapes | null, labeled: Partial<Record<Task, number>>, stepsOnOthers: number): TaskCount[] {
  const done = (task: TaskCount['task']) => labeled[task] ?? 0;
  if (!shapes) return (['pairwise', 'ranking', 'steps', 'verdict'] as const).filter((t) => done(t) > 0).map((task) => ({ task, labeled: done(task), total: null }));
  const tasks: TaskCount[] = [];
  if (shapes.pairs > 0 || done('pairwise') > 0) tasks.push({ task: 'pairwise', labeled: done('pairwise'), total: shapes.pairs });
  if (shapes.ranked > 0 || done('ranking') > 0) tasks.push({ task: 'ranking', labeled: done('ranking'), total: shapes.ranked });
  if (shapes.chains > 0 || done('steps') > 0) tasks.push({ task: 'steps', labeled: done('steps'), total: shapes.single + stepsOnOthers });
  if ((shapes.single > 0 && shapes.single > shapes.chains) || done('verdict') > 0) tasks.push({ task: 'verdict', labeled: done('verdict'), total: shapes.single });
  return tasks;
}

export interface ProjectsOutputs {
  listProjects: ProjectOverview[];
  createProject: ProjectOverview;
  getProject: ProjectOverview;
  updateProjectSettings: ProjectSettings;
  renameProject: ProjectOverview;
  deleteProject: { deleted: string; backup: string };
}
