// The project's npm configuration: no key npm does not know (npm 11 warns on every command about one,
// and npm 12 refuses it under strict-npmrc), and onnxruntime-node's install script kept from running,
// because on Linux x64 it downloads the CUDA binaries from nuget.org and fails an offline install.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/host';

describe('npm configuration', () => {
  it('npm reads the project .npmrc without a warning about an unknown key', () => {
    const result = spawnSync('npm', ['config', 'get', 'fund'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    // This machine's own ~/.npmrc may draw "Unknown user config"; only the project's file is ours.
    expect(result.stderr).not.toMatch(/project config/i);
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).not.toMatch(/^\s*onnxruntime-node/m);
  });

  it("onnxruntime-node's install script is denied in allowScripts, so a fresh offline install does not download CUDA", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    expect(pkg.allowScripts?.['onnxruntime-node']).toBe(false);
    // The CPU binaries are in the package itself: it loads without the script having run.
    const loaded = spawnSync(process.execPath, ['-e', "require('onnxruntime-node'); console.log('ok')"], { cwd: ROOT, encoding: 'utf8' });
    expect(loaded.stdout.trim(), loaded.stderr).toBe('ok');
  });
});
