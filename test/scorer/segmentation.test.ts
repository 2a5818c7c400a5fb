// A process model scores exactly the steps the step screen shows: the newest stored segmentation
// (the file's own, or an annotator's split or merge), else the project's segmentation method. After a
// split, the old scores are not shown against the new cut; a re-score scores the new cut.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listModels, prelabelsForItem, scoreProjectInline } from '../../electron/core/scorer';
import { inputHash } from '../../electron/core/scorer/inputs';
import { ArbiterService } from '../../electron/core/service/index';
import type { Db } from '../../electron/core/store/db';
import { getScore } from '../../electron/core/store/models';
import { updateSettings } from '../../electron/core/store/projects';
import { modelStepsFor } from '../../renderer/src/features/steps/modelSteps';
import type { StepsView } from '../../shared/api';
import { segment } from '../../shared/segment';
import { makeDb, tempDir, writeModelFolder } from './helpers';

const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

const PRM_MANIFEST = {
  kind: 'process',
  input: { system_prompt: 'we check' },
  process: { step_separator: '<extra_0>', score: { type: 'class_probability', class_index: 1 } },
};

const PROMPT = 'two plus two';
// Two numbered steps of two lines each: numbered gives 2 steps, lines 4.
const A = '1. first we add two plus two\nthen it equals four\n2. so the answer is four\nwe check it';
const B = '1. we add two\nit is four\n2. the answer is four\nyes good';

async function setup() {
  const folder = writeModelFolder(join(tempDir(), 'prm'), { kind: 'prm', manifest: PRM_MANIFEST });
  const { db, dbPath, projectId, itemIds } = makeDb([{ prompt: PROMPT, responses: [{ content: A }, { content: B }] }]);
  open.push(db);
  updateSettings(db, 'p', { segmentation: 'numbered' });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'ann' });
  const itemId = itemIds[0]!;
  const score = () => scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' });
  const view = () => service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId }) as Promise<StepsView>;
  const prelabels = () => prelabelsForItem(db, projectId, itemId);
  return { db, service, itemId, score, view, prelabels };
}

/** Every response: the model scored as many steps as the screen shows, and the step screen lines its chips up. */
function expectAligned(view: StepsView, pre: ReturnType<typeof prelabelsForItem>) {
  const model = pre.models.find((m) => m.kind === 'process')!;
  for (const response of view.responses) {
    const scores = model.steps?.[response.index];
    expect(scores, `response ${response.index}`).toHaveLength(response.steps.length);
    const [chips] = modelStepsFor(pre, response.index, response.steps);
    expect(chips).toMatchObject({ aligned: true, steps: scores });
  }
}

describe("process scores follow the step screen's segmentation", () => {
  it("scores the project's method: a 'numbered' project's responses are scored by their numbered steps", async () => {
    const { db, score, view, prelabels } = await setup();
    expect(segment(A, 'lines').steps).toHaveLength(4);
    const shown = await view();
    expect(shown.responses.map((r) => [r.method, r.steps.length])).toEqual([
      ['numbered', 2],
      ['numbered', 2],
    ]);
    const result = await score();
    expect(result.models[0]).toMatchObject({ scored: 2, unscorable: 0 });
    const id = listModels(db)[0]!.id;
    const stored = getScore(db, id, inputHash('process', { prompt: PROMPT, response: A, steps: null, segmentation: 'numbered' }))!;
    expect(stored.stepScores).toHaveLength(2);
    expectAligned(shown, prelabels());
  });

  it('after a split, a re-score scores the new cut and the step screen lines its scores up', async () => {
    const { service, itemId, score, view, prelabels } = await setup();
    await score();
    const split = await service.dispatch('resegment', { project: 'p', annotator: 'ann', itemId, response: 0, op: 'split', fromVersion: 1, step: 0, at: 'first we add two plus two'.length + 3 });
    expect(split.view.responses[0]!.steps).toEqual(['1. first we add two plus two', 'then it equals four', '2. so the answer is four\nwe check it']);
    const again = await score();
    // Only the split response is new; the other is cached with the cut the screen still shows.
    expect(again.models[0]).toMatchObject({ scored: 1, cached: 1 });
    const shown = await view();
    expect(shown.responses[0]!.steps).toHaveLength(3);
    expectAligned(shown, prelabels());
  });

  it('before a re-score, scores made for the old cut are not shown against the new one', async () => {
    const { service, itemId, score, view, prelabels } = await setup();
    await score();
    const before = prelabels(); // what the screen holds from before the split
    const first = (await view()).responses[0]!;
    expect(modelStepsFor(before, 0, first.steps)[0]).toMatchObject({ aligned: true });
    // Split step 1, then merge its second half into step 2: as many steps as before, cut elsewhere.
    await service.dispatch('resegment', { project: 'p', annotator: 'ann', itemId, response: 0, op: 'split', fromVersion: 1, step: 0, at: 'first we add two plus two'.length + 3 });
    const { view: after } = await service.dispatch('resegment', { project: 'p', annotator: 'ann', itemId, response: 0, op: 'merge', fromVersion: 2, step: 1 });
    const now = after.responses[0]!.steps;
    expect(now).toHaveLength(first.steps.length);
    expect(now).not.toEqual(first.steps);
    // Pre-labels read now have no scores for the new cut; the ones held from before are not matched to it.
    const fresh = prelabels().models[0]!;
    expect(fresh.steps?.[0]).toBeNull();
    expect(fresh.steps?.[1]).toHaveLength(2);
    for (const pre of [before, prelabels()]) expect(modelStepsFor(pre, 0, now)[0]).toMatchObject({ steps: null, firstError: null, aligned: false });
    // The untouched response keeps its chips.
    expect(modelStepsFor(before, 1, (await view()).responses[1]!.steps)[0]).toMatchObject({ aligned: true });
  });
});
