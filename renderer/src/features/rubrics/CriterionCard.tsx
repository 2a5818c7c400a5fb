// One criterion in the rubric editor: key, scale (yes / no, Likert from–to, named categories), weight (a
// negative one marks a pitfall, and says so), hotkey, required, and the description in markdown beside
// its preview. The checks' sentences sit under the field they name. Drag by the handle, or Alt+↑ / Alt+↓
// with the focus anywhere in the card.
import { useDraggable, useDroppable } from '@dnd-kit/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Markdown } from '../../components/Markdown';
import { isSafety } from './criteria';
import type { DraftCriterion, ScaleType } from './draft';

const SCALES: { type: ScaleType; label: string }[] = [
  { type: 'binary', label: 'Yes / no' },
  { type: 'likert', label: 'Likert' },
  { type: 'categories', label: 'Categories' },
];

function Field({ label, children, errors, className }: { label: string; children: ReactNode; errors?: string[]; className?: string }) {
  return (
    <label className={`flex flex-col gap-0.5 ${className ?? ''}`}>
      <span className="text-[10.5px] font-semibold tracking-wide text-faint uppercase">{label}</span>
      {children}
      {errors?.map((e) => (
        <span key={e} className="max-w-[34ch] text-[11.5px] leading-snug text-bad" data-testid="field-error">
          {e}
        </span>
      ))}
    </label>
  );
}

const input = (bad: boolean) =>
  `h-7 rounded border bg-surface px-1.5 text-[13px] outline-none focus:border-accent ${bad ? 'border-bad ring-1 ring-bad/40' : 'border-line-strong'}`;

function CategoryList({ values, onChange, errors }: { values: string[]; onChange(values: string[]): void; errors?: string[] }) {
  const [draft, setDraft] = useState('');
  const add = () => {
    const parts = draft
      .split(/[,\n]/)
      .map((p) => p.trim())
      .filter(Boolean);
    if (!parts.length) return;
    onChange([...values, ...parts]);
    setDraft('');
  };
  return (
    <div className="flex flex-col gap-1" data-testid="categories">
      <span className="text-[10.5px] font-semibold tracking-wide text-faint uppercase">Categories (key = number)</span>
      <ul className="flex flex-wrap items-center gap-1">
        {values.map((v, i) => (
          <li key={`${v}-${i}`} className="flex items-center gap-1 rounded border border-line bg-bg py-px pr-0.5 pl-1.5 text-[12.5px]" data-testid="category">
            <span className="font-mono text-[10.5px] text-faint">{i + 1}</span>
            <span>{v}</span>
            <button
              type="button"
              onClick={() => onChange(values.filter((_, j) => j !== i))}
              className="rounded px-1 text-muted hover:bg-surface-2 hover:text-bad"
              aria-label={`Remove the category ${v}`}
              data-testid="remove-category"
            >
              ×
            </button>
          </li>
        ))}
        <li>
          <input
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              } else if (e.key === 'Backspace' && draft === '' && values.length) onChange(values.slice(0, -1));
            }}
            onBlur={add}
            placeholder={values.length ? 'add…' : 'type a category, Enter'}
            aria-label="Add a category"
            className="h-6 w-36 rounded border border-dashed border-line-strong bg-transparent px-1.5 text-[12.5px] outline-none focus:border-accent"
            data-testid="add-category"
          />
        </li>
      </ul>
      {errors?.map((e) => (
        <span key={e} className="text-[11.5px] text-bad" data-testid="field-error">
          {e}
        </span>
      ))}
    </div>
  );
}

export function CriterionCard({
  criterion: c,
  index,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
}: {
  criterion: DraftCriterion;
  index: number;
  count: number;
  errors: Map<string, string[]> | undefined;
  onChange(patch: Partial<DraftCriterion>, field: string): void;
  onMove(delta: -1 | 1): void;
  onRemove(): void;
}) {
  const drag = useDraggable({ id: c.id });
  const drop = useDroppable({ id: c.id });
  const description = useRef<HTMLTextAreaElement>(null);
  const weight = Number(c.weight);
  const pitfall = c.weight.trim() !== '' && Number.isFinite(weight) && weight < 0;
  const err = (field: string) => errors?.get(field);
  useEffect(() => {
    const el = description.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(Math.max(el.scrollHeight, 52), 220)}px`;
  }, [c.description]);
  return (
    <li
      ref={drop.setNodeRef}
      data-card={c.id}
      data-testid="criterion-card"
      data-key={c.key}
      onKeyDown={(e) => {
        if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
          e.preventDefault();
          onMove(e.key === 'ArrowUp' ? -1 : 1);
        }
      }}
      className={`rounded-md border bg-surface px-3 py-2 ${drop.isOver && !drag.isDragging ? 'border-accent ring-1 ring-accent' : 'border-line'} ${drag.isDragging ? 'opacity-40' : ''}`}
    >
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1.5">
        <button
          ref={drag.setActivatorNodeRef}
          {...drag.listeners}
          {...drag.attributes}
          type="button"
          tabIndex={-1}
          className="mt-4 flex h-7 w-5 cursor-grab items-center justify-center rounded text-faint hover:bg-surface-2 hover:text-fg active:cursor-grabbing"
          title="Drag to reorder (or Alt+↑ / Alt+↓)"
          aria-label={`Move ${c.key || 'criterion'}`}
          data-testid="drag-handle"
        >
          ⠿
        </button>
        <span className="mt-[18px] w-5 text-right font-mono text-[11.5px] text-faint tabular-nums">{index + 1}</span>
        <Field label="Key" errors={err('key')}>
          <input
            value={c.key}
            onChange={(e) => onChange({ key: e.target.value }, 'key')}
            placeholder="correctness"
            spellCheck={false}
            className={`${input(Boolean(err('key')))} w-52 font-mono`}
            data-field="key"
            data-testid="criterion-key"
          />
        </Field>
        <Field label="Scale" errors={err('scale')}>
          <select value={c.type} onChange={(e) => onChange({ type: e.target.value as ScaleType }, 'type')} className={`${input(false)} pr-6`} data-field="type" data-testid="criterion-scale">
            {SCALES.map((s) => (
              <option key={s.type} value={s.type}>
                {s.label}
              </option>
            ))}
          </select>
        </Field>
        {c.type === 'likert' && (
          <>
            <Field label="From" errors={err('scale.min')}>
              <input value={c.min} onChange={(e) => onChange({ min: e.target.value }, 'min')} inputMode="numeric" className={`${input(Boolean(err('scale.min')))} w-14 text-right tabular-nums`} data-field="min" data-testid="criterion-min" />
            </Field>
            <Field label="To" errors={err('scale.max')}>
              <input value={c.max} onChange={(e) => onChange({ max: e.target.value }, 'max')} inputMode="numeric" className={`${input(Boolean(err('scale.max')))} w-14 text-right tabular-nums`} data-field="max" data-testid="criterion-max" />
            </Field>
          </>
        )}
        <Field label="Weight" errors={err('weight')}>
          <span className="flex items-center gap-1.5">
            <input value={c.weight} onChange={(e) => onChange({ weight: e.target.value }, 'weight')} inputMode="decimal" className={`${input(Boolean(err('weight')))} w-16 text-right tabular-nums`} data-field="weight" data-testid="criterion-weight" />
            {pitfall && (
              <span className="rounded-sm bg-bad-soft px-1.5 py-px text-[11px] font-medium text-bad" title="A negative weight: rating this high counts against the response" data-testid="pitfall">
                pitfall
              </span>
            )}
          </span>
        </Field>
        <Field label="Hotkey" errors={err('hotkey')}>
          <input
            value={c.hotkey}
            onChange={(e) => onChange({ hotkey: [...e.target.value].slice(-1).join('') }, 'hotkey')}
            placeholder="—"
            className={`${input(Boolean(err('hotkey')))} w-10 text-center font-mono`}
            data-field="hotkey"
            data-testid="criterion-hotkey"
            aria-label="Hotkey (one character, not a digit)"
          />
        </Field>
        {isSafety(c) && (
          <span className="mt-[18px] rounded-sm bg-tie-soft px-1.5 py-px text-[11px] font-medium text-tie" title="Keys starting with “safety” form the safety axis: rated apart, with their own winner" data-testid="safety-axis">
            safety axis
          </span>
        )}
        <label className="mt-4 flex h-7 items-center gap-1.5 text-[12.5px] text-muted">
          <input type="checkbox" checked={c.required} onChange={(e) => onChange({ required: e.target.checked }, 'required')} data-field="required" data-testid="criterion-required" />
          required
        </label>
        <div className="mt-4 ml-auto flex items-center gap-0.5 text-muted">
          <IconButton title="Move up (Alt+↑)" disabled={index === 0} onClick={() => onMove(-1)} testid="move-up">
            ↑
          </IconButton>
          <IconButton title="Move down (Alt+↓)" disabled={index === count - 1} onClick={() => onMove(1)} testid="move-down">
            ↓
          </IconButton>
          <IconButton title="Remove this criterion (Ctrl+Z brings it back)" onClick={onRemove} testid="remove-criterion" danger>
            ✕
          </IconButton>
        </div>
      </div>
      {c.type === 'categories' && (
        <div className="mt-1.5 pl-16">
          <CategoryList values={c.values} onChange={(values) => onChange({ values }, 'values')} errors={err('scale.values')} />
        </div>
      )}
      <div className="mt-1.5 grid gap-3 pl-16 md:grid-cols-2">
        <Field label="Description (markdown)" errors={err('description')}>
          <textarea
            ref={description}
            value={c.description}
            onChange={(e) => onChange({ description: e.target.value }, 'description')}
            placeholder="What the annotator judges, and what each value means."
            className="min-h-[52px] resize-none rounded border border-line-strong bg-surface px-2 py-1 text-[13px] leading-[1.45] outline-none focus:border-accent"
            data-field="description"
            data-testid="criterion-description-input"
          />
        </Field>
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="text-[10.5px] font-semibold tracking-wide text-faint uppercase">Preview</span>
          <div className="min-h-[52px] rounded border border-dashed border-line px-2 py-1 text-muted" data-testid="criterion-preview">
            {c.description.trim() ? <Markdown text={c.description} className="md-small" /> : <span className="text-[12.5px] text-faint">Shown to the annotator when the criterion has the focus.</span>}
          </div>
        </div>
      </div>
      {errors?.get('')?.map((e) => (
        <p key={e} className="mt-1 pl-16 text-[11.5px] text-bad" data-testid="field-error">
          {e}
        </p>
      ))}
    </li>
  );
}

function IconButton({ children, title, onClick, disabled, testid, danger }: { children: ReactNode; title: string; onClick(): void; disabled?: boolean; testid: string; danger?: boolean }) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      title={title}
      aria-label={title}
      className={`flex h-7 w-7 items-center justify-center rounded text-[13px] hover:bg-surface-2 disabled:opacity-30 ${danger ? 'hover:text-bad' : 'hover:text-fg'}`}
      data-testid={testid}
    >
      {children}
    </button>
  );
}
