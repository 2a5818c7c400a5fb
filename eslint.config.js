// Lint, including the layering rules of DESIGN.md (the way VS Code keeps common/node/electron-main apart):
// shared imports nothing of ours; core never imports electron, host, cli or the renderer; the renderer
// imports only shared; only electron/main and electron/preload import 'electron'.
import tseslint from 'typescript-eslint';

const electronBan = { name: 'electron', message: "Only electron/main and electron/preload may import 'electron'." };
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'http', 'net', 'url', 'util', 'stream', 'events', 'module'];

function layer(files, patterns, paths = [electronBan]) {
  return { files, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
}

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
  layer(['electron/core/**/*.ts'], [
    { group: ['**/electron/main/**', '**/electron/preload/**', '**/host/**', '**/cli/**', '**/renderer/**', '../main/*', '../preload/*', '../host/*', '../cli/*'], message: 'core imports shared only (and itself).' },
  ]),
  layer(['electron/host/**/*.ts', 'electron/cli/**/*.ts'], [
    { group: ['**/electron/main/**', '**/electron/preload/**', '**/renderer/**', '../main/*', '../preload/*'], message: 'host and cli import core and shared only.' },
  ]),
  layer(['electron/main/**/*.ts'], [{ group: ['**/renderer/**', '../preload/*', '**/cli/**', '**/host/**', '../host/*'], message: 'main imports core and shared.' }], []),
  layer(['electron/preload/**/*.ts'], [{ group: ['**/core/**', '**/host/**', '**/cli/**', '**/renderer/**'], message: 'preload only bridges: shared and electron.' }], []),
  layer(['renderer/src/**/*.{ts,tsx}'], [
    { group: ['**/electron/**', '../../electron/*', '../../../electron/*'], message: 'The renderer talks to the API client only; it imports shared/.' },
    { group: nodeBuiltins, message: 'The renderer runs in a sandboxed page: no Node built-ins.' },
  ]),
);
