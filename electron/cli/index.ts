// Bundle entry for out/node/cli.mjs.
export { runCli } from './main';
