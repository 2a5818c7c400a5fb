// Guidelines (shared/api/guidelines.ts): the project's markdown document. A save names the revision its
// editor opened; when someone saved a newer one meanwhile, the save is refused with a conflict that says
// who and when, so nobody's edit is overwritten unseen. The same text again adds no revision.
import { conflict } from '../base/errors';
import { appendGuidelines, readGuidelines } from '../store/guidelines';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireProject } from './guards';

type GuidelinesOps = 'getGuidelines' | 'saveGuidelines';

export function guidelinesHandlers({ db, events }: ServiceContext): FeatureHandlers<GuidelinesOps> {
  return {
    getGuidelines: ({ project }) => readGuidelines(db, requireProject(db, project).id),
    saveGuidelines: ({ project: name, text, baseRevision, annotator }) => {
      const project = requireProject(db, name);
      const normalized = text.replace(/\r\n?/g, '\n');
      const saved = writeNow(db, () => {
        const current = readGuidelines(db, project.id);
        if (current.text === normalized) return { ...current, created: false };
        if (current.revision !== baseRevision) {
          const by = current.author ? ` by ${current.author}` : '';
          throw conflict(
            `The guidelines were changed${by} since you opened them (revision ${current.revision}${current.updatedAt ? `, ${current.updatedAt}` : ''}; you started from ${baseRevision}). Copy your text, reload the guidelines, and apply your change again.`,
          );
        }
        return { ...appendGuidelines(db, project.id, normalized, annotator ?? null), created: true };
      });
      if (saved.created) events.emit('event', { type: 'guidelines', project: project.name, revision: saved.revision });
      return saved;
    },
  };
}
