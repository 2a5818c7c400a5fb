// `scores` export: one line per scored response — the item, the response's source index, the model,
// its reward, per-step scores for process models, and the execution provider that computed it.
import type { ItemRecord } from '../../../../shared/domain';
import type { ItemPrelabels } from '../../../../shared/scoring';

export function encodeScores(item: ItemRecord, prelabels: ItemPrelabels, hashes: Map<number, string>): unknown[] {
  const lines: unknown[] = [];
  for (const model of prelabels.models) {
    model.rewards.forEach((reward, response) => {
      const steps = model.steps?.[response] ?? null;
      if (reward === null && !steps) return;
      lines.push({
        item: item.externalId ?? item.uid,
        item_uid: item.uid,
        response,
        model: model.name,
        model_hash: hashes.get(model.modelId) ?? null,
        reward,
        step_scores: steps,
        ...(model.firstError ? { first_error: model.firstError[response] ?? null } : {}),
        provider: model.provider,
      });
    });
  }
  return lines;
}
