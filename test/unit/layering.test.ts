// The layering rules are lint rules; this proves they fire on the imports DESIGN.md forbids.
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: join(__dirname, '..', '..') });

async function errorsFor(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering lint', () => {
  it("lets only electron/main and electron/preload import 'electron'", async () => {
    const code = "import { app } from 'electron';\nexport const x = app;\n";
    expect(await errorsFor(code, 'electron/core/probe.ts')).toHaveLength(1);
    expect(await errorsFor(code, 'electron/host/probe.ts')).toHaveLength(1);
    expect(await errorsFor(code, 'renderer/src/probe.ts')).toHaveLength(1);
    expect(await errorsFor(code, 'electron/main/probe.ts')).toHaveLength(0);
    expect(await errorsFor(code, 'electron/preload/probe.ts')).toHaveLength(0);
  });

  it('keeps the renderer on shared/ only, and shared/ free of Node', async () => {
    expect(await errorsFor("import { openDb } from '../../electron/core/store/db';\nexport const x = openDb;\n", 'renderer/src/probe.ts')).toHaveLength(1);
    expect(await errorsFor("import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'renderer/src/probe.ts')).toHaveLength(1);
    expect(await errorsFor("import { shownOrder } from '../../shared/order';\nexport const x = shownOrder;\n", 'renderer/src/probe.ts')).toHaveLength(0);
    expect(await errorsFor("import { createHash } from 'node:crypto';\nexport const x = createHash;\n", 'shared/probe.ts')).toHaveLength(1);
    expect(await errorsFor("import { startHost } from '../host/server';\nexport const x = startHost;\n", 'electron/core/probe.ts')).toHaveLength(1);
  });
});
