// Who labels what, and in which order: the labeling order (the file's, random per annotator, or the
// items the models are least sure about first) and overlap (each item to k people of the team). Both are
// project settings; every machine with the same team and overlap splits the work the same way.
import { useEffect, useState } from 'react';
import { LABELING_ORDERS, type LabelingOrder, type ProjectSettings } from '../../../../shared/domain';
import { api, errorMessage } from '../../api';

type Split = Pick<ProjectSettings, 'order' | 'overlap' | 'team'>;

const ORDER_TITLES: Record<LabelingOrder, string> = {
  source: 'The file’s order',
  random: 'Random, per annotator',
  uncertain: 'Most uncertain first',
};
const ORDER_NOTES: Record<LabelingOrder, string> = {
  source: 'Items come in the order they were imported.',
  random: 'Each annotator walks every item once in an order of their own (the same each time), so order effects average out.',
  uncertain: 'Items the reward models are least sure about come first (score the project on the Models screen), then the rest in the file’s order.',
};

export function WorkSplitPanel({ project }: { project: string }) {
  const [split, setSplit] = useState<Split | null>(null);
  const [teamText, setTeamText] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api
      .getProject({ project })
      .then((p) => {
        if (!live) return;
        setSplit({ order: p.settings.order, overlap: p.settings.overlap, team: p.settings.team });
        setTeamText(p.settings.team.join(', '));
      })
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [project]);

  const save = async (change: Partial<Split>) => {
    if (!split) return;
    const before = split;
    setSplit({ ...split, ...change });
    setError(null);
    try {
      const saved = await api.updateProjectSettings({ project, settings: change });
      setSplit({ order: saved.order, overlap: saved.overlap, team: saved.team });
    } catch (e) {
      setSplit(before);
      setError(errorMessage(e));
    }
  };

  const saveTeam = () => {
    const team = [...new Set(teamText.split(/[,\n]/).map((n) => n.trim()).filter(Boolean))];
    if (split && team.join(',') !== split.team.join(',')) void save({ team });
  };

  const people = split?.team.length ?? 0;
  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="work-split">
      <h2 className="text-[14px] font-semibold">Labeling order and overlap</h2>
      {split === null ? (
        !error && <div className="text-[13px] text-muted">Loading…</div>
      ) : (
        <div className="grid gap-x-6 gap-y-3 text-[13px] md:grid-cols-[minmax(0,280px)_minmax(0,1fr)]">
          <label className="flex flex-col gap-1">
            <span className="text-[12px] text-muted">Order</span>
            <select
              value={split.order}
              onChange={(e) => void save({ order: e.target.value as LabelingOrder })}
              className="h-8 rounded-md border border-line bg-surface-2 px-2 text-fg"
              data-testid="order-select"
            >
              {LABELING_ORDERS.map((o) => (
                <option key={o} value={o}>
                  {ORDER_TITLES[o]}
                </option>
              ))}
            </select>
            <span className="text-[12px] text-faint">{ORDER_NOTES[split.order]}</span>
          </label>
          <div className="flex flex-col gap-1">
            <label className="flex flex-col gap-1">
              <span className="text-[12px] text-muted">Team (annotator names, comma-separated)</span>
              <input
                value={teamText}
                onChange={(e) => setTeamText(e.target.value)}
                onBlur={saveTeam}
                onKeyDown={(e) => e.key === 'Enter' && saveTeam()}
                placeholder="alice, bob, carol"
                className="h-8 rounded-md border border-line bg-surface-2 px-2 text-fg"
                data-testid="team-input"
              />
            </label>
            <label className="mt-1 flex items-center gap-2">
              <span className="text-[12px] text-muted">Each item labeled by</span>
              <input
                type="number"
                min={0}
                max={Math.max(people, 0)}
                value={split.overlap}
                onChange={(e) => void save({ overlap: Math.max(0, Math.min(100, Number(e.target.value) || 0)) })}
                className="h-8 w-16 rounded-md border border-line bg-surface-2 px-2 text-fg tabular-nums"
                data-testid="overlap-input"
              />
              <span className="text-[12px] text-muted">of them</span>
            </label>
            <span className="text-[12px] text-faint">
              {split.overlap === 0 || split.overlap >= people
                ? 'Everyone labels every item. Set a number below the team size to split the work.'
                : `Each item goes to ${split.overlap} of ${people}, chosen from the names and the item alone, so machines that never talk split the work the same way. Anyone not on the team sees every item.`}
            </span>
          </div>
        </div>
      )}
      {error && (
        <div className="text-[13px] text-bad" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
