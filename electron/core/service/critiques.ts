// Critiques (shared/api/critiques.ts): one 'critique' revision per save, with the text per response letter
// in source order and the "right verdict, wrong reasoning" flags. A critique the item came with (a
// `source` annotator's, imported with the file, else a model annotator's) is the original: an annotator's
// edit is a revision of their own naming it (`based_on`), and the original revision is never touched.
import type { CritiqueView, CritiquesOutputs } from '../../../shared/api';
import type { LabelRevision } from '../../../shared/domain';
import { readBody, type CritiqueBody } from '../../../shared/labelBodies';
import { responseLetter } from '../../../shared/letters';
import { invalidInput } from '../base/errors';
import { letterProblem } from '../base/labelRules';
import { findAnnotator } from '../store/annotators';
import type { Db } from '../store/db';
import { currentLabel, currentLabelsOfKind, getRevision, labelAppender } from '../store/labels';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireHumanAnnotator, requireItem, requireOwnRevisionId, requireProject } from './guards';

type CritiqueOps = 'getCritiques' | 'saveCritique';

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** A critique revision as the screens show it; null when its body holds no critique (a cleared one). */
function critiqueView(revision: LabelRevision | null): CritiqueView | null {
  if (!revision) return null;
  const body = readBody('critique', revision.body);
  if (!isRecord(body.critique)) return null;
  const critique: Record<string, string> = {};
  for (const [letter, text] of Object.entries(body.critique)) if (typeof text === 'string') critique[letter] = text;
  const wrongReasoning: Record<string, boolean> = {};
  if (isRecord(body.wrong_reasoning)) for (const [letter, flag] of Object.entries(body.wrong_reasoning)) if (flag === true) wrongReasoning[letter] = true;
  return {
    id: revision.id,
    annotator: revision.annotator,
    annotatorKind: revision.annotatorKind,
    createdAt: revision.createdAt,
    critique,
    wrongReasoning,
    basedOn: typeof body.based_on === 'string' ? body.based_on : null,
  };
}

/** The critique an item came with: a `source` annotator's current one, else a model annotator's. */
function originalCritique(db: Db, itemId: number): CritiqueView | null {
  for (const kind of ['source', 'model'] as const) {
    for (const revision of currentLabelsOfKind(db, itemId, kind, 'critique')) {
      const view = critiqueView(revision);
      if (view && Object.values(view.critique).some((text) => text.trim() !== '')) return view;
    }
  }
  return null;
}

export function getCritiques(db: Db, input: { project: string; annotator: string; itemId: number }): CritiquesOutputs['getCritiques'] {
  const project = requireProject(db, input.project);
  const item = requireItem(db, project, input.itemId);
  const me = findAnnotator(db, input.annotator);
  const mine = me && me.kind === 'human' ? critiqueView(currentLabel(db, item.id, me.id, 'critique')) : null;
  return { mine, original: originalCritique(db, item.id) };
}

export function critiquesHandlers({ db, events }: ServiceContext): FeatureHandlers<CritiqueOps> {
  return {
    getCritiques: (input) => getCritiques(db, input),
    saveCritique: (input) => {
      const project = requireProject(db, input.project);
      const item = requireItem(db, project, input.itemId);
      const letters = item.responses.map((_, i) => responseLetter(i));
      const problems: string[] = [];
      for (const [field, keys] of [['critiques', Object.keys(input.critiques)], ['wrongReasoning', Object.keys(input.wrongReasoning ?? {})]] as const)
        for (const letter of keys) {
          const why = letterProblem(letter, letters.length);
          if (why) problems.push(`${field}.${letter}: ${why.replace(/^the item /, `item ${item.id} `)}`);
        }
      if (problems.length) throw invalidInput(`Could not save the critique: ${problems.join('; ')}.`, { problems });
      const id = writeNow(db, () => {
        const annotator = requireHumanAnnotator(db, input.annotator);
        // Source order, texts with their line ends normalized; an empty text is no critique of that response.
        const critique: Record<string, string> = {};
        for (const letter of letters) {
          const text = input.critiques[letter]?.replace(/\r\n?/g, '\n');
          if (text !== undefined && text.trim() !== '') critique[letter] = text;
        }
        // The revision id of the original critique (a file's or a model's) this one edits: `based_on`.
        const body: CritiqueBody = { critique };
        const flags = letters.filter((letter) => input.wrongReasoning?.[letter] === true);
        if (flags.length) body.wrong_reasoning = Object.fromEntries(flags.map((letter) => [letter, true]));
        const original = originalCritique(db, item.id);
        if (original) body.based_on = original.id;
        if (input.timeMs !== undefined) body.time_ms = input.timeMs;
        requireOwnRevisionId(db, input.id, { projectId: project.id, itemId: item.id, annotatorId: annotator.id, task: 'critique' });
        return labelAppender(db)({
          id: input.id,
          projectId: project.id,
          itemId: item.id,
          annotatorId: annotator.id,
          task: 'critique',
          choice: null,
          body,
          done: Object.keys(critique).length > 0 || flags.length > 0,
        }).id;
      });
      events.emit('event', { type: 'label', project: input.project, itemId: item.id, task: 'critique' });
      return getRevision(db, id)!;
    },
  };
}
