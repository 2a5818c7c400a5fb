// Projects: list, create, open, rename, delete (after a backup), settings.
import { backupBeforeDelete } from '../store/backups';
import * as projects from '../store/projects';
import type { FeatureHandlers, ServiceContext } from './context';
import { screenTotals } from './screenTotals';

type ProjectOps = 'listProjects' | 'createProject' | 'getProject' | 'updateProjectSettings' | 'renameProject' | 'deleteProject';

export function projectsHandlers(context: ServiceContext): FeatureHandlers<ProjectOps> {
  const { db, events, options } = context;
  // Shapes, progress per task and the screen a project opens on (cached per project until an import).
  const { overview } = screenTotals(context);
  return {
    listProjects: () => projects.projectRows(db).map(overview),
    createProject: ({ name, guidelines }) => overview(projects.createProject(db, name, guidelines ?? '')),
    getProject: ({ project }) => overview(projects.requireProject(db, project)),
    updateProjectSettings: ({ project, settings }) => projects.updateSettings(db, project, settings),
    renameProject: ({ project, name }) => overview(projects.renameProject(db, project, name)),
    deleteProject: async ({ project }) => {
      projects.requireProject(db, project);
      // Kept beside the database: a deleted project can be restored from it (docs/data.md, "Backup and restore").
      // The copy is made on a worker's own connection, so saves go on meanwhile; the newest N are kept.
      const file = await backupBeforeDelete(db, options.dbPath, project);
      const id = projects.markDeleting(db, project);
      // The rows go in short batches after the answer; the project is already gone from every list.
      void projects.deleteProjectRows(db, id).then(
        () => events.emit('event', { type: 'projectDeleted', project }),
        (error: unknown) => console.error(`Arbiter: deleting project ${project} stopped: ${(error as Error).message}; it resumes at the next start.`),
      );
      return { deleted: project, backup: file };
    },
  };
}
