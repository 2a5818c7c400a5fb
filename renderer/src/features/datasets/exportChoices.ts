// The export dialog's formats: grouped by family, only the families the project's items fit, and the one
// it starts on. What the items are comes from the overview: their shapes, their images, and the formats
// they were imported from (an agent's trajectories, or an Arbiter file that may hold anything).
import type { ProjectOverview } from '../../../../shared/api/projects';
import { GUI_TRAJECTORY_FORMATS, TRAJECTORY_FORMATS, TRL_VISION_FORMATS, TURN_EXPORT_FORMATS, VISION_BENCH_FORMATS, type ExportFormat } from '../../../../shared/formatNames';

interface Kinds {
  overview: ProjectOverview;
  shapes: NonNullable<ProjectOverview['shapes']>;
  /** Some items came from an agent trajectory format. */
  trajectories: boolean;
  /** Every import was of agent trajectories. */
  onlyTrajectories: boolean;
  /** Some items came from a format that holds any shape (Arbiter's own, a hub join). */
  anything: boolean;
}

interface Family {
  label: string;
  formats: readonly ExportFormat[];
  fits: (k: Kinds) => boolean;
}

const AGENT_IMPORTS: readonly string[] = [...TRAJECTORY_FORMATS, ...GUI_TRAJECTORY_FORMATS];

const FAMILIES: Family[] = [
  {
    label: 'Pairs and rankings',
    formats: ['trl', 'trl-implicit', 'trl-chat', 'trl-chat-implicit', 'openrlhf', 'hh-rlhf', 'rewardbench', 'ultrafeedback-binarized', 'helpsteer2-preference', 'helpsteer3', 'consensus'],
    fits: (k) => k.shapes.pairs + k.shapes.ranked > 0,
  },
  { label: 'Single answers', formats: ['trl-unpaired'], fits: (k) => k.shapes.single > 0 && !k.onlyTrajectories },
  { label: 'Steps (process supervision)', formats: ['trl-stepwise', 'prm800k', 'math-shepherd', 'processbench'], fits: (k) => k.shapes.chains > 0 && !k.onlyTrajectories },
  { label: 'Ratings and critiques', formats: ['ultrafeedback', 'helpsteer2', 'prometheus', 'critique'], fits: () => true },
  { label: 'Agent trajectories', formats: [...TURN_EXPORT_FORMATS, ...TRAJECTORY_FORMATS], fits: (k) => k.trajectories || k.anything },
  { label: 'Images', formats: [...TRL_VISION_FORMATS, ...VISION_BENCH_FORMATS], fits: (k) => k.overview.images > 0 },
  { label: 'Arbiter', formats: ['arbiter', 'labels', 'scores'], fits: () => true },
];

function kindsOf(overview: ProjectOverview, shapes: NonNullable<ProjectOverview['shapes']>): Kinds {
  const formats = overview.formats ?? [];
  const agents = formats.filter((f) => AGENT_IMPORTS.includes(f));
  return { overview, shapes, trajectories: agents.length > 0, onlyTrajectories: formats.length > 0 && agents.length === formats.length, anything: formats.length === 0 || formats.includes('arbiter') };
}

/** The families to offer, each with its formats; every family while the project is not known or counted yet. */
export function exportGroups(overview: ProjectOverview | null): { label: string; formats: readonly ExportFormat[] }[] {
  const shapes = overview?.shapes;
  if (!overview || !shapes) return FAMILIES.map(({ label, formats }) => ({ label, formats }));
  const kinds = kindsOf(overview, shapes);
  return FAMILIES.filter((f) => f.fits(kinds)).map(({ label, formats }) => ({ label, formats }));
}

/**
 * The format the dialog starts on: an agent's trajectories TRL stepwise turns; chains TRL stepwise; single
 * answers KTO; else TRL vision where the project holds images, else TRL pairs (one that is offered).
 */
export function defaultExportFormat(overview: ProjectOverview | null): ExportFormat {
  const wanted: ExportFormat =
    overview && overview.shapes && kindsOf(overview, overview.shapes).trajectories
      ? 'trl-stepwise-turns'
      : overview?.opensOn === 'steps'
        ? 'trl-stepwise'
        : overview?.opensOn === 'verdict'
          ? 'trl-unpaired'
          : (overview?.images ?? 0) > 0
            ? 'trl-vision'
            : 'trl';
  const offered = exportGroups(overview).flatMap((g) => g.formats);
  return offered.includes(wanted) ? wanted : (offered[0] ?? wanted);
}
