// The reward models' view of an item with three or more responses: each model's order of the responses
// by reward, named by screen position like the annotator's picks. In assist mode it shows from the start;
// in blind mode only once the annotator's own ranking is complete, so it cannot anchor the ranking, and
// it then says whether the model's best agrees with theirs.
import { useEffect, useState } from 'react';
import type { ItemPrelabels } from '../../../../shared/scoring';
import { usePrelabelCache } from '../../components/prelabels';

/** Screen positions (1-based) best first, by a model's rewards; null when a response has no score yet. */
export function modelOrder(rewards: (number | null)[], order: number[]): number[] | null {
  if (rewards.length !== order.length || rewards.some((r) => r === null)) return null;
  return order
    .map((source, screen) => ({ screen: screen + 1, reward: rewards[source]! }))
    .sort((a, b) => b.reward - a.reward || a.screen - b.screen)
    .map((r) => r.screen);
}

export function ModelRanking(props: {
  project: string;
  itemId: number;
  order: number[];
  mode: 'blind' | 'assist' | null;
  scoresVersion: number;
  /** The annotator's ranking is complete (blind mode reveals the models then). */
  complete: boolean;
  /** Screen position of the annotator's single best response, if one. */
  best: number | null;
}) {
  const prelabels = usePrelabelCache(props.project, props.scoresVersion);
  const [data, setData] = useState<ItemPrelabels | null>(null);
  useEffect(() => {
    let live = true;
    setData(null);
    void prelabels(props.itemId).then((loaded) => live && setData(loaded.data));
    return () => {
      live = false;
    };
  }, [prelabels, props.itemId]);
  const rankings = (data?.models ?? [])
    .filter((m) => m.kind === 'outcome' || m.rewards.length > 0)
    .map((m) => ({ name: m.name, positions: modelOrder(m.rewards, props.order) }))
    .filter((m): m is { name: string; positions: number[] } => m.positions !== null);
  if (!props.mode || rankings.length === 0) return null;
  if (props.mode === 'blind' && !props.complete)
    return (
      <span className="text-faint" data-testid="model-ranking" data-state="hidden">
        models’ ranking shows once yours is complete
      </span>
    );
  return (
    <span className="flex min-w-0 items-center gap-3 truncate" data-testid="model-ranking" data-state="shown">
      {rankings.map((m) => {
        const agrees = props.best !== null ? m.positions[0] === props.best : null;
        return (
          <span key={m.name} className="truncate" title={`${m.name}: responses by reward, best first (screen positions)`}>
            <span className="text-muted">{m.name}:</span> <b className="font-semibold tabular-nums">{m.positions.join(' > ')}</b>
            {props.mode === 'blind' && agrees !== null && (
              <span className={`ml-1 ${agrees ? 'text-ok' : 'text-bad'}`}>{agrees ? 'same best' : 'another best'}</span>
            )}
          </span>
        );
      })}
    </span>
  );
}
