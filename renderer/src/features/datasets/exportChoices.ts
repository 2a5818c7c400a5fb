// The export dialog's formats: grouped by family, only the families the project's items fit, and the one
// it starts on. What the items are comes from the overview: their shapes, their images, and the formats
// they were imported from (an agent's trajectories, or an Arbiter file that may hold anything).
import type { ProjectOverview } from '../../../../shared/api/projects';
import { FORMAT_CATALOG } from '../../../../shared/formatCatalog';
import { FAMILY_LABELS, FORMAT_FAMILIES, type FormatFamily } from '../../../../shared/formatFamilies';
import type { ExportFormat } from '../../../../shared/formatNames';

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

/** Which projects each family fits (its formats, and their order: the format registry's, shared/formatCatalog.ts). */
const FITS: Record<FormatFamily, (k: Kinds) => boolean> = {
  pairs: (k) => k.shapes.pairs + k.shapes.ranked > 0,
  single: (k) => k.shapes.single > 0 && !k.onlyTrajectories,
  steps: (k) => k.shapes.chains > 0 && !k.onlyTrajectories,
  ratings: () => true,
  trajectories: (k) => k.trajectories || k.anything,
  images: (k) => k.overview.images > 0,
  videos: (k) => k.anything || (k.overview.formats ?? []).some((f) => VIDEO_IMPORTS.includes(f)),
  arbiter: () => true,
};

const VIDEO_IMPORTS: readonly string[] = FORMAT_CATALOG.filter((f) => f.family === 'videos' && f.reads).map((f) => f.name);
const AGENT_IMPORTS: readonly string[] = FORMAT_CATALOG.filter((f) => f.family === 'trajectories' && f.reads).map((f) => f.name);

const FAMILIES: Family[] = FORMAT_FAMILIES.map((family) => ({
  label: FAMILY_LABELS[family],
  formats: FORMAT_CATALOG.filter((f) => f.family === family && f.writes).map((f) => f.name as ExportFormat),
  fits: FITS[family],
}));

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
