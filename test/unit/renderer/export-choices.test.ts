// The export dialog's formats (issue 20, item 23): 41 formats in one flat list, whatever the project held,
// and a trajectory project started on TRL stepwise (a chain's format). Now grouped by family, only the
// families the project's items fit, and a trajectory project starts on TRL stepwise turns.
import { describe, expect, it } from 'vitest';
import { defaultExportFormat, exportGroups } from '../../../renderer/src/features/datasets/exportChoices';
import { EXPORT_FORMATS } from '../../../shared/formatNames';
import type { ProjectOverview } from '../../../shared/api/projects';

function overview(part: Partial<ProjectOverview> & { shapes: ProjectOverview['shapes'] }): ProjectOverview {
  return { name: 'p', createdAt: '', items: 10, labeled: 0, settings: {} as never, tasks: [], opensOn: 'compare', images: 0, formats: ['trl'], ...part };
}

const formatsOf = (groups: { formats: readonly string[] }[]) => groups.flatMap((g) => g.formats);

describe('the export dialog’s formats', () => {
  it('groups every format under one family, each once', () => {
    const all = exportGroups(null);
    expect(formatsOf(all).sort()).toEqual([...EXPORT_FORMATS].sort());
    expect(all.map((g) => g.label)).toEqual(['Pairs and rankings', 'Single answers', 'Steps (process supervision)', 'Ratings and critiques', 'Agent trajectories', 'Images', 'Videos', 'Arbiter']);
  });

  it('offers a trajectory project the agent formats and starts it on trl-stepwise-turns', () => {
    const agents = overview({ shapes: { single: 3, pairs: 0, ranked: 0, chains: 3 }, opensOn: 'steps', formats: ['swe-agent'] });
    const offered = formatsOf(exportGroups(agents));
    expect(offered).toContain('trl-stepwise-turns');
    expect(offered).toContain('corrections-sft');
    expect(offered).not.toContain('trl-stepwise');
    expect(offered).not.toContain('trl');
    expect(offered).not.toContain('trl-vision');
    expect(defaultExportFormat(agents)).toBe('trl-stepwise-turns');
  });

  it('offers a pair project its preference formats, not the agent, step or image ones', () => {
    const pairs = overview({ shapes: { single: 0, pairs: 10, ranked: 0, chains: 0 } });
    const offered = formatsOf(exportGroups(pairs));
    expect(offered).toContain('trl');
    expect(offered).toContain('consensus');
    expect(offered).toContain('arbiter');
    for (const f of ['trl-stepwise', 'trl-stepwise-turns', 'swe-agent', 'trl-vision', 'trl-unpaired']) expect(offered, f).not.toContain(f);
    expect(defaultExportFormat(pairs)).toBe('trl');
    expect(defaultExportFormat(overview({ shapes: { single: 5, pairs: 0, ranked: 0, chains: 5 }, opensOn: 'steps', formats: ['prm800k'] }))).toBe('trl-stepwise');
    expect(defaultExportFormat(overview({ shapes: { single: 0, pairs: 2, ranked: 0, chains: 0 }, images: 3, formats: ['pickapic'] }))).toBe('trl-vision');
  });

  it('offers everything where the items could be anything (an Arbiter file, a project still being counted)', () => {
    expect(formatsOf(exportGroups(overview({ shapes: { single: 1, pairs: 1, ranked: 1, chains: 1 }, formats: ['arbiter'] }))).sort()).toEqual(
      [...EXPORT_FORMATS].filter((f) => !['trl-vision', 'trl-vision-parquet', 'vl-rewardbench', 'multimodal-rewardbench', 'pickapic', 'openai-vision', 'mm-rlhf'].includes(f)).sort(),
    );
    expect(formatsOf(exportGroups(overview({ shapes: null })))).toHaveLength(EXPORT_FORMATS.length);
  });
});
