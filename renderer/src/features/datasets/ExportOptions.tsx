// The export's options besides the format and whose labels decide: which items (all, adjudicated only,
// or at least some agreement), and the options of some formats (neutral steps, the pairs a ranking gives,
// pairs from rubric totals). Each option shows only where it applies.
import { IMAGE_EXPORT_FORMATS, RANKING_PAIRS, type ExportFormat, type RankingPairs } from '../../../../shared/formatNames';
import { plural } from '../../../../shared/plural';

export interface ExportChoices {
  items: 'all' | 'adjudicated' | 'agreement';
  minAgreement: number;
  neutral: boolean;
  rankingPairs: RankingPairs;
  fromRatings: boolean;
  /** A text-only format on a project with images: write the items without their images. */
  dropImages: boolean;
}

export const DEFAULT_EXPORT_CHOICES: ExportChoices = { items: 'all', minAgreement: 0.67, neutral: false, rankingPairs: 'all', fromRatings: false, dropImages: false };

/** The format writes text only: items with images are refused unless their images are left out. */
export const textOnly = (format: ExportFormat) => !IMAGE_EXPORT_FORMATS.includes(format);

const STEP_FORMATS = new Set<ExportFormat>(['trl-stepwise', 'math-shepherd']);
const PAIR_FORMATS = new Set<ExportFormat>(['trl', 'trl-implicit', 'trl-chat', 'trl-chat-implicit', 'openrlhf', 'hh-rlhf', 'rewardbench', 'ultrafeedback-binarized']);
const RECORD_FORMATS = new Set<ExportFormat>(['labels', 'scores']);

export const PAIRS_TITLES: Record<RankingPairs, string> = { all: 'every pair of ranks', 'best-worst': 'best against worst', adjacent: 'neighbouring ranks' };

/** The API's export options for these choices and this format. */
export function exportInput(format: ExportFormat, c: ExportChoices) {
  return {
    ...(RECORD_FORMATS.has(format) ? {} : c.items === 'adjudicated' ? { adjudicatedOnly: true } : c.items === 'agreement' ? { minAgreement: c.minAgreement } : {}),
    ...(STEP_FORMATS.has(format) && c.neutral ? { neutral: true } : {}),
    ...(PAIR_FORMATS.has(format) ? { rankingPairs: c.rankingPairs, ...(c.fromRatings ? { fromRatings: true } : {}) } : {}),
    ...(textOnly(format) && c.dropImages ? { images: 'drop' as const } : {}),
  };
}

const field = 'h-8 rounded-md border border-line-strong bg-surface px-2';

/** `images`: how many images the project holds (a text-only format then says what it does with them). */
export function ExportOptions({ format, value, onChange, images = 0 }: { format: ExportFormat; value: ExportChoices; onChange(next: ExportChoices): void; images?: number }) {
  const set = (patch: Partial<ExportChoices>) => onChange({ ...value, ...patch });
  return (
    <>
      {images > 0 && textOnly(format) && (
        <div className="flex flex-col gap-1.5 rounded-md border border-line bg-surface-2 px-2.5 py-2" data-testid="export-images">
          <p className="text-[12.5px] text-muted" data-testid="export-images-note">
            This format writes text only: the project holds {plural(images, 'image')}. TRL vision (JSON Lines or Parquet), the benchmark shapes and Arbiter’s own format keep them.
          </p>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={value.dropImages} onChange={(e) => set({ dropImages: e.target.checked })} data-testid="export-images-drop" />
            <span>Leave the images out (write the text only)</span>
          </label>
        </div>
      )}
      {!RECORD_FORMATS.has(format) && (
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Items</span>
          <div className="flex items-center gap-2">
            <select value={value.items} onChange={(e) => set({ items: e.target.value as ExportChoices['items'] })} className={`${field} flex-1`} data-testid="export-items">
              <option value="all">Every decided item</option>
              <option value="adjudicated">Adjudicated only</option>
              <option value="agreement">Where people agree at least…</option>
            </select>
            {value.items === 'agreement' && (
              <input
                type="number"
                min={0}
                max={100}
                step={5}
                value={Math.round(value.minAgreement * 100)}
                onChange={(e) => set({ minAgreement: Math.max(0, Math.min(100, Number(e.target.value) || 0)) / 100 })}
                className={`${field} w-20 tabular-nums`}
                aria-label="Least agreement, percent"
                data-testid="export-min-agreement"
              />
            )}
            {value.items === 'agreement' && <span className="text-muted">%</span>}
          </div>
        </label>
      )}
      {STEP_FORMATS.has(format) && (
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={value.neutral} onChange={(e) => set({ neutral: e.target.checked })} data-testid="export-neutral" />
          <span>Neutral (0) steps count as good</span>
        </label>
      )}
      {PAIR_FORMATS.has(format) && (
        <>
          <label className="flex flex-col gap-1">
            <span className="text-[12px] text-muted">Pairs from a ranking</span>
            <select value={value.rankingPairs} onChange={(e) => set({ rankingPairs: e.target.value as RankingPairs })} className={field} data-testid="export-ranking-pairs">
              {RANKING_PAIRS.map((p) => (
                <option key={p} value={p}>
                  {PAIRS_TITLES[p]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2" title="An item with rubric ratings but no choice gives pairs by its responses' weighted rubric totals; equal totals are ties, left out">
            <input type="checkbox" checked={value.fromRatings} onChange={(e) => set({ fromRatings: e.target.checked })} data-testid="export-from-ratings" />
            <span>Pairs from rubric totals where there is no choice</span>
          </label>
        </>
      )}
    </>
  );
}
