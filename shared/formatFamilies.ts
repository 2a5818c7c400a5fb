// The families the export dialog groups formats in (each format's family: its descriptor in
// electron/core/formats, listed in ./formatCatalog.ts). The dialog decides which fit a project
// (renderer/src/features/datasets/exportChoices.ts); this is their order and their names.
export const FORMAT_FAMILIES = ['pairs', 'single', 'steps', 'ratings', 'trajectories', 'images', 'videos', 'arbiter'] as const;
export type FormatFamily = (typeof FORMAT_FAMILIES)[number];

export const FAMILY_LABELS: Record<FormatFamily, string> = {
  pairs: 'Pairs and rankings',
  single: 'Single answers',
  steps: 'Steps (process supervision)',
  ratings: 'Ratings and critiques',
  trajectories: 'Agent trajectories',
  images: 'Images',
  videos: 'Videos',
  arbiter: 'Arbiter',
};
