// Lint, including the layering rules of docs/architecture.md (the way VS Code keeps common/node/electron-main apart):
// shared imports nothing of ours; core never imports electron, host, cli or the renderer; the renderer
// imports only shared; only electron/main and electron/preload import 'electron'.
import tseslint from 'typescript-eslint';

const electronBan = { name: 'electron', message: "Only electron/main and electron/preload may import 'electron'." };
// PostgreSQL is the team hub's: its client and its SQL live in electron/core/hub/ and nowhere else (docs/architecture.md).
const pgBans = ['pg', 'pg-copy-streams'].map((name) => ({ name, message: 'PostgreSQL is reached only from electron/core/hub/ (its connections and SQL live there).' }));
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'http', 'net', 'url', 'util', 'stream', 'events', 'module'];

const corePatterns = [
  { group: ['**/electron/main/**', '**/electron/preload/**', '**/host/**', '**/cli/**', '**/renderer/**', '../main/*', '../preload/*', '../host/*', '../cli/*'], message: 'core imports shared only (and itself).' },
];

function layer(files, patterns, paths = [electronBan]) {
  return { files, rules: { 'no-restricted-imports': ['error', { paths: [...paths, ...pgBans], patterns }] } };
}

// The floors of electron/core, bottom up (as VS Code's layering names base / platform / editor / workbench).
// A folder imports shared/, its own floor and the floors below it, never one above: base holds the pure
// helpers; store (SQLite) and images stand on it; then the scorer and review (the metrics); then the
// formats (an export writes scores and agreement); then the hub (it publishes and pulls items in the
// formats' terms); then tasks (the jobs); then service, the one door cli, host and main come through
// (base/ aside).
export const CORE_FLOORS = [['base'], ['store', 'images', 'videos'], ['scorer', 'review', 'judge'], ['formats'], ['hub'], ['tasks'], ['service']];
function coreFloors() {
  return CORE_FLOORS.flatMap((floor, level) => {
    const above = CORE_FLOORS.slice(level + 1).flat();
    return floor.map((folder) => {
      const patterns = [...corePatterns];
      if (above.length) {
        const message = `electron/core/${folder}/ is on floor ${level} (eslint.config.js CORE_FLOORS): it may import ${CORE_FLOORS.slice(0, level + 1).flat().join(', ')} and shared/, not a floor above it (${above.join(', ')}).`;
        patterns.push({ group: above.map((name) => `**/${name}/**`), message });
      }
      const paths = folder === 'hub' ? [electronBan] : [electronBan, ...pgBans];
      return { files: [`electron/core/${folder}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
    });
  });
}
const throughService = {
  group: CORE_FLOORS.flat().filter((name) => name !== 'service' && name !== 'base').map((name) => `**/core/${name}/**`),
  message: 'cli, host and main reach core through electron/core/service/ (and the helpers of base/); export what they need from there.',
};

const rendererPatterns = [
  { group: ['**/electron/**', '../../electron/*', '../../../electron/*'], message: 'The renderer talks to the API client only; it imports shared/.' },
  { group: nodeBuiltins, message: 'The renderer runs in a sandboxed page: no Node built-ins.' },
];
// renderer/src/features/ by floors, bottom up: gold's rules and figures (goldRules), the panels other features show (the team panel, the
// guidelines), then the trajectory view and the critique boxes, then the rating sheet, then the labeling loop
// (Compare, Rank and Verdict walk and save through it), then the screens, then the items explorer (it shows
// the datasets screen's export panel; the shell hands its table to the datasets screen).
// A feature imports components/ and the features on floors below it, never a feature on its own floor or
// above: what two screens share lives in renderer/src/components/ (images/ there too), which imports no feature.
export const FEATURE_FLOORS = [['goldRules'], ['team', 'guidelines', 'judges'], ['trajectories', 'critiques'], ['rubrics'], ['labeling', 'evaluation'], ['compare', 'datasets', 'models', 'projects', 'rankings', 'review', 'steps'], ['items']];
function featureFloors() {
  const blocks = FEATURE_FLOORS.flatMap((floor, level) =>
    floor.map((feature) => {
      const banned = [...floor.filter((other) => other !== feature), ...FEATURE_FLOORS.slice(level + 1).flat()];
      const message = `renderer/src/features/${feature}/ is on floor ${level} (eslint.config.js FEATURE_FLOORS): it imports components/ and ${level ? FEATURE_FLOORS.slice(0, level).flat().join(', ') : 'no other feature'}, not ${banned.join(', ')}; move what they share to renderer/src/components/.`;
      return { files: [`renderer/src/features/${feature}/**/*.{ts,tsx}`], rules: { 'no-restricted-imports': ['error', { paths: [electronBan, ...pgBans], patterns: [...rendererPatterns, ...(banned.length ? [{ group: banned.map((name) => `**/features/${name}/**`).concat(banned.map((name) => `../${name}/**`), banned.map((name) => `../../${name}/**`)), message }] : [])] }] } };
    }),
  );
  blocks.push({ files: ['renderer/src/components/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', { paths: [electronBan, ...pgBans], patterns: [...rendererPatterns, { group: ['**/features/**'], message: 'renderer/src/components/ holds what features share: it imports no feature.' }] }] } });
  return blocks;
}

// SQL text (a string that starts like a statement) lives in electron/core/store/ (SQLite) and
// electron/core/hub/ (PostgreSQL) only; everything else calls their functions.
const SQL_START = '/^\\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|GRANT|REVOKE|LISTEN|UNLISTEN|NOTIFY|PRAGMA|VACUUM|WITH|TRUNCATE|COPY|SAVEPOINT)\\s+\\S|^\\s*(BEGIN|COMMIT|ROLLBACK)\\s*;?\\s*$/';
const sqlMessage = 'SQL lives in electron/core/store/ (SQLite) or electron/core/hub/ (PostgreSQL); call a function from there.';

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', '.venv-trl/**', '.venv-trl.building-*/**', 'dist/**', '.cache/**', 'bench/.data/**', 'resources/**', 'docs/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  layer(['shared/**/*.ts'], [
    { group: ['**/electron/**', '**/renderer/**', '../electron/*', '../renderer/*'], message: 'shared/ imports nothing of ours.' },
    { group: nodeBuiltins, message: 'shared/ is isomorphic: no Node built-ins.' },
  ]),
  layer(['electron/core/**/*.ts'], corePatterns),
  layer(['electron/host/**/*.ts', 'electron/cli/**/*.ts'], [
    { group: ['**/electron/main/**', '**/electron/preload/**', '**/renderer/**', '../main/*', '../preload/*'], message: 'host and cli import core and shared only.' },
    throughService,
  ]),
  layer(['electron/main/**/*.ts'], [{ group: ['**/renderer/**', '../preload/*', '**/cli/**', '**/host/**', '../host/*'], message: 'main imports core and shared.' }, throughService], []),
  layer(['electron/preload/**/*.ts'], [{ group: ['**/core/**', '**/host/**', '**/cli/**', '**/renderer/**'], message: 'preload only bridges: shared and electron.' }], []),
  layer(['renderer/src/**/*.{ts,tsx}'], rendererPatterns),
  ...featureFloors(),
  // Each floor of core imports only the floors below it; the hub itself may reach PostgreSQL.
  ...coreFloors(),
  {
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    ignores: ['electron/core/store/**', 'electron/core/hub/**'],
    rules: {
      'no-restricted-syntax': ['error', { selector: `Literal[value=${SQL_START}]`, message: sqlMessage }, { selector: `TemplateElement[value.raw=${SQL_START}]`, message: sqlMessage }],
    },
  },
);
