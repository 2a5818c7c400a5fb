// The layering rules are lint rules; this proves they fire on the imports docs/architecture.md forbids.
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: join(__dirname, '..', '..') });

async function errorsFor(code: string, filePath: string, rule = 'no-restricted-imports'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
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

  it('keeps PostgreSQL (pg, pg-copy-streams) in electron/core/hub/, where core\'s other rules still hold', async () => {
    const code = "import pg from 'pg';\nexport const x = pg;\n";
    expect(await errorsFor(code, 'electron/core/hub/probe.ts')).toHaveLength(0);
    expect(await errorsFor("import { to } from 'pg-copy-streams';\nexport const x = to;\n", 'electron/core/hub/probe.ts')).toHaveLength(0);
    for (const where of ['electron/core/service/probe.ts', 'electron/core/store/probe.ts', 'electron/cli/probe.ts', 'electron/main/probe.ts', 'shared/probe.ts']) {
      const errors = await errorsFor(code, where);
      expect(errors, where).toHaveLength(1);
      expect(errors[0]).toContain('PostgreSQL is reached only from electron/core/hub/');
    }
    expect(await errorsFor("import { serve } from '../../cli/serve';\nexport const x = serve;\n", 'electron/core/hub/probe.ts')).toHaveLength(1);
  });

  it('lets SQL text live only in electron/core/store/ and electron/core/hub/', async () => {
    const code = "export const q = 'SELECT uuid FROM arbiter.annotator WHERE pg_role = current_user';\nexport const t = `INSERT INTO label (id) VALUES (${1})`;\n";
    expect(await errorsFor(code, 'electron/core/hub/probe.ts', 'no-restricted-syntax')).toHaveLength(0);
    expect(await errorsFor(code, 'electron/core/store/probe.ts', 'no-restricted-syntax')).toHaveLength(0);
    for (const where of ['electron/cli/probe.ts', 'electron/core/service/probe.ts', 'electron/host/probe.ts', 'renderer/src/probe.ts']) {
      expect(await errorsFor(code, where, 'no-restricted-syntax'), where).toHaveLength(2);
    }
    // Words that merely start like a keyword are not SQL.
    expect(await errorsFor("export const k = ['SELECT', 'With care', 'Delete the project?'];\n", 'electron/cli/probe.ts', 'no-restricted-syntax')).toHaveLength(0);
  });

  it("holds each floor of electron/core to the floors below it (eslint.config.js CORE_FLOORS)", async () => {
    const probe = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;
    // Backward: a floor importing one above it.
    const backward: [string, string][] = [
      ['electron/core/base/probe.ts', '../store/db'],
      ['electron/core/store/probe.ts', '../scorer/types'],
      ['electron/core/images/probe.ts', '../formats/types'],
      ['electron/core/formats/import/probe.ts', '../../tasks/jobs'],
      ['electron/core/scorer/probe.ts', '../service/index'],
      ['electron/core/hub/probe.ts', '../tasks/jobs'],
      ['electron/core/tasks/probe.ts', '../service/steps'],
      ['electron/core/scorer/probe.ts', '../formats/content'],
      ['electron/core/review/probe.ts', '../formats/base/resolve'],
      ['electron/core/formats/export/probe.ts', '../../hub/sync'],
    ];
    for (const [where, from] of backward) {
      const errors = await errorsFor(probe(from), where);
      expect(errors, `${where} importing ${from}`).toHaveLength(1);
      expect(errors[0]).toContain('not a floor above it');
    }
    // Downward and sideways on one floor are the floors' own business.
    const allowed: [string, string][] = [
      ['electron/core/store/probe.ts', '../base/errors'],
      ['electron/core/formats/import/probe.ts', '../../images/resolve'],
      ['electron/core/formats/probe.ts', '../scorer/index'],
      ['electron/core/tasks/probe.ts', '../scorer/index'],
      ['electron/core/service/probe.ts', '../hub/sync'],
    ];
    for (const [where, from] of allowed) expect(await errorsFor(probe(from), where), `${where} importing ${from}`).toHaveLength(0);
  });

  it('lets cli, host and main reach core through service/ (and base/) only', async () => {
    const probe = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;
    for (const where of ['electron/cli/probe.ts', 'electron/host/probe.ts', 'electron/main/probe.ts']) {
      for (const from of ['../core/store/db', '../core/formats/index', '../core/scorer/index', '../core/hub/connect', '../core/review/report', '../core/tasks/jobs', '../core/images/store']) {
        const errors = await errorsFor(probe(from), where);
        expect(errors, `${where} importing ${from}`).toHaveLength(1);
        expect(errors[0]).toContain('through electron/core/service/');
      }
      for (const from of ['../core/service/direct', '../core/service/openApp', '../core/base/errors']) expect(await errorsFor(probe(from), where), `${where} importing ${from}`).toHaveLength(0);
    }
  });

  it("keeps a renderer feature off the features on its own floor and above (eslint.config.js FEATURE_FLOORS)", async () => {
    const probe = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;
    const refused: [string, string][] = [
      ['renderer/src/features/rankings/probe.tsx', '../compare/CompareScreen'],
      ['renderer/src/features/review/probe.ts', '../steps/stepKeys'],
      ['renderer/src/features/trajectories/probe.tsx', '../steps/StepRow'],
      ['renderer/src/features/critiques/probe.ts', '../rubrics/useRatings'],
      ['renderer/src/features/team/sub/probe.tsx', '../../trajectories/turnModel'],
      ['renderer/src/features/team/probe.tsx', '../guidelines/GuidelinesEditor'],
    ];
    for (const [where, from] of refused) {
      const errors = await errorsFor(probe(from), where);
      expect(errors, `${where} importing ${from}`).toHaveLength(1);
      expect(errors[0]).toContain('FEATURE_FLOORS');
    }
    expect(await errorsFor(probe('../features/compare/CompareScreen'), 'renderer/src/components/probe.tsx')).toHaveLength(1);
    expect(await errorsFor(probe('../../features/team/TeamPanel'), 'renderer/src/components/images/probe.tsx')).toHaveLength(1);
    // components/ imports no feature at all (images/ was a feature ContentView reached into; it is components/images/ now).
    expect(await errorsFor(probe('../features/images/ImageView'), 'renderer/src/components/probe.tsx')).toHaveLength(1);
    const allowed: [string, string][] = [
      ['renderer/src/features/steps/probe.tsx', '../trajectories/turnModel'],
      ['renderer/src/features/rubrics/probe.ts', '../critiques/useCritiques'],
      ['renderer/src/features/compare/probe.tsx', '../../components/PromptPane'],
      ['renderer/src/features/trajectories/probe.tsx', '../../components/images/ImageView'],
      ['renderer/src/components/probe.tsx', './images/ImageView'],
    ];
    for (const [where, from] of allowed) expect(await errorsFor(probe(from), where), `${where} importing ${from}`).toHaveLength(0);
  });
});
