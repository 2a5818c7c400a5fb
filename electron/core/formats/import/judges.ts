// A file's own judgements (steps, rankings, verdicts, ratings, critiques, its annotators' preferences)
// as label revision drafts for the importer: who judged, and the rubric version ratings are under.
import { ensureAnnotator, SOURCE_ANNOTATOR } from '../../store/annotators';
import type { Db } from '../../store/db';
import type { RevisionDraft } from '../../store/labels';
import { rubricInForce, saveRubricVersion, setRubricInForce } from '../../store/rubrics';
import type { SourceJudgement } from '../types';

export interface Judged {
  draft: RevisionDraft;
  judgement: SourceJudgement;
}

/**
 * Turns a file's judgements into revision drafts: who judged (the `source` annotator, or one of the file's
 * own annotators, kind source) and, for ratings, the rubric version they are under: the file's rubric is
 * saved as a project rubric (its newest version kept when the criteria are the same), once per import.
 * It is saved with the first ratings written, so an import that fails later leaves it, with no label.
 */
export function judgeResolver(db: Db, projectId: number) {
  const annotators = new Map<string, number>();
  const versions = new Map<string, { id: number; version: number }>();
  return {
    draft(project: number, itemId: number, judgement: SourceJudgement, createdAt: string): RevisionDraft {
      const name = judgement.annotator ?? SOURCE_ANNOTATOR;
      let annotatorId = annotators.get(name);
      if (annotatorId === undefined) annotators.set(name, (annotatorId = ensureAnnotator(db, name, 'source').id));
      let body = judgement.body;
      let rubricVersionId: number | null = null;
      if (judgement.rubric) {
        const key = JSON.stringify(judgement.rubric);
        let version = versions.get(key);
        if (!version) {
          const saved = saveRubricVersion(db, projectId, judgement.rubric.name, judgement.rubric.criteria).version;
          versions.set(key, (version = { id: saved.id, version: saved.version }));
          if (judgement.rubric.inForce && rubricInForce(db, projectId) === null) setRubricInForce(db, projectId, judgement.rubric.name);
        }
        rubricVersionId = version.id;
        const { ratings, ...rest } = body;
        body = { ratings, rubric: judgement.rubric.name, rubric_version: version.version, ...rest };
      }
      return {
        projectId: project,
        itemId,
        annotatorId,
        createdAt,
        task: judgement.task,
        choice: judgement.choice ?? null,
        strength: judgement.strength ?? null,
        ranking: judgement.ranking ?? null,
        rubricVersionId,
        body,
        done: true,
      };
    },
  };
}
