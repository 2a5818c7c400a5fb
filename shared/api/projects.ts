// Projects: create, open, rename, delete, settings.
import { z } from 'zod';
import { LABELING_ORDERS, type ProjectSettings, type ProjectSummary } from '../domain';
import { SEGMENTATION_METHODS } from '../segment';
import { annotatorName, projectName } from './common';

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
        })
        .partial()
        .strict(),
    })
    .strict(),
  renameProject: z.object({ project: projectName, name: projectName }).strict(),
  /** Deleting asks first in the UI; the database is backed up before the project goes. */
  deleteProject: z.object({ project: projectName, confirm: z.literal(true) }).strict(),
} as const;

export interface ProjectsOutputs {
  listProjects: ProjectSummary[];
  createProject: ProjectSummary;
  getProject: ProjectSummary;
  updateProjectSettings: ProjectSettings;
  renameProject: ProjectSummary;
  deleteProject: { deleted: string; backup: string };
}
