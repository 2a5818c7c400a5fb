// The Rubric screen's side list: each rubric with its versions (newest first) and how many labels each
// holds, which one is in force, and the ways to start a new one.
import type { RubricSummary } from '../../../../shared/api';
import { plural } from '../../../../shared/plural';

interface Props {
  list: RubricSummary[] | null;
  listError: string | null;
  /** The rubric and version open in the editor (null: a new one, not saved yet). */
  openName: string | null;
  openVersion: number | null;
  onOpen(name: string, version?: number): void;
  onInForce(name: string | null): void;
  onNewBlank(): void;
  onNewTemplate(): void;
  onNewImageTemplate(): void;
}

export function RubricList({ list, listError, openName, openVersion, onOpen, onInForce, onNewBlank, onNewTemplate, onNewImageTemplate }: Props) {
  return (
    <>
      <div>
        <h2 className="mb-1 px-1 text-[10.5px] font-semibold tracking-wide text-faint uppercase">Rubrics · versions · labels</h2>
        {listError && <p className="px-1 text-[12.5px] text-bad">{listError}</p>}
        {list && list.length === 0 && <p className="px-1 text-[12.5px] text-muted">None yet. The one you save first is put in force.</p>}
        <ul className="flex flex-col gap-2">
          {list?.map((r) => (
            <li key={r.name} className={`rounded-md border px-2 py-1.5 ${openName === r.name ? 'border-accent/60 bg-accent-soft/50' : 'border-line'}`} data-testid="rubric-entry" data-name={r.name}>
              <div className="flex items-center gap-1.5">
                <button className="truncate text-left text-[13px] font-medium hover:text-accent" onClick={() => onOpen(r.name)} data-testid="open-rubric">
                  {r.name}
                </button>
                {r.inForce ? (
                  <span className="ml-auto rounded bg-ok/12 px-1.5 py-px text-[11px] font-medium text-ok" data-testid="in-force">
                    in force
                  </span>
                ) : (
                  <button className="ml-auto text-[11.5px] text-muted hover:text-accent" onClick={() => onInForce(r.name)} title="The compare and verdict screens rate with this rubric" data-testid="use-rubric">
                    use for labeling
                  </button>
                )}
              </div>
              <ol className="mt-1 flex flex-col text-[12px]" data-testid="versions">
                {[...r.versions].reverse().map((v) => {
                  const current = openName === r.name && openVersion === v.version;
                  return (
                    <li key={v.version}>
                      <button
                        className={`flex w-full items-baseline gap-2 rounded px-1 py-px text-left hover:bg-surface-2 ${current ? 'font-medium text-fg' : 'text-muted'}`}
                        onClick={() => onOpen(r.name, v.version)}
                        title={`Created ${new Date(v.createdAt).toLocaleString()} · ${plural(v.criteria, 'criterion', 'criteria')} · ${plural(v.revisions, 'revision')} in all`}
                        data-testid="version"
                        data-version={v.version}
                        data-labels={v.labels}
                      >
                        <span className="w-7 font-mono">v{v.version}</span>
                        <span className="tabular-nums">
                          {plural(v.labels, 'label')}
                        </span>
                        {v.version === r.latest && <span className="ml-auto text-[11px] text-faint">newest</span>}
                      </button>
                    </li>
                  );
                })}
              </ol>
            </li>
          ))}
        </ul>
        {list?.some((r) => r.inForce) && (
          <button className="mt-2 px-1 text-[11.5px] text-muted hover:text-bad" onClick={() => onInForce(null)} data-testid="stop-rating">
            Stop rating (no rubric in force)
          </button>
        )}
      </div>
      <div className="flex flex-col gap-1 border-t border-line pt-3">
        <h2 className="px-1 text-[10.5px] font-semibold tracking-wide text-faint uppercase">New rubric</h2>
        <button
          className="rounded px-1 py-0.5 text-left text-[13px] text-muted hover:bg-surface-2 hover:text-fg"
          onClick={onNewBlank}
          data-testid="new-blank"
        >
          + Blank
        </button>
        <button
          className="rounded px-1 py-0.5 text-left text-[13px] text-muted hover:bg-surface-2 hover:text-fg"
          onClick={onNewTemplate}
          title="Helpfulness criteria, and a safety axis (harm category, severity, over-refusal) rated apart, with its own winner"
          data-testid="new-template"
        >
          + Helpfulness + safety template
        </button>
        <button
          className="rounded px-1 py-0.5 text-left text-[13px] text-muted hover:bg-surface-2 hover:text-fg"
          onClick={onNewImageTemplate}
          title="For generated images: text alignment, fidelity, aesthetics, plausibility and overall, each 1 to 5"
          data-testid="new-image-template"
        >
          + Image generation template
        </button>
      </div>
    </>
  );
}
