// The dashboard and `arbiter stats --json` show no coefficient below its minimum n (issue 20, item 20): two
// people's one shared verdict gave Fleiss' κ −1.00, Cohen's κ 0.00 and 0% agreement; now each is null
// with "not enough data: 1 item (10 needed)". Ten shared pairs are enough, and are shown. Labels per
// hour are per hour of recorded time: ten labels saved milliseconds apart, 30 s spent on each, are 120.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { importLines } from '../../electron/core/formats/index';
import { MIN_ITEMS } from '../../electron/core/review/minimums';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import type { ReviewReport } from '../../shared/api/review';
import { tempDir } from '../helpers/tmp';

describe('figures below their minimum n', () => {
  it('say "not enough data" on the report and in `arbiter stats --json`; rates are per active hour', async () => {
    expect(MIN_ITEMS).toBe(10);
    const pairs = Array.from({ length: 10 }, (_, k) => ({ id: `pair${k}`, prompt: `p${k}`, responses: [{ text: 'a' }, { text: 'b' }] }));
    const lines = [...pairs, { id: 'solo', prompt: 'one', responses: [{ text: 'only' }] }].map((l) => JSON.stringify(l));
    const dbPath = join(tempDir(), 'a.db');
    const db = openDb(dbPath);
    await importLines(db, { project: 'p', fileName: 'p.jsonl', lines, sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
    const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ana' });
    const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
    for (const annotator of ['ana', 'ben']) {
      for (let k = 0; k < 10; k++)
        await service.dispatch('saveLabel', { project: 'p', annotator, itemId: id(`pair${k}`), choice: k % 3 === 0 && annotator === 'ben' ? 'B' : 'A', shownOrder: [0, 1], timeMs: 30_000 });
      await service.dispatch('saveVerdict', { project: 'p', annotator, itemId: id('solo'), verdict: annotator === 'ana' ? 'good' : 'bad' });
    }
    const check = (report: ReviewReport) => {
      const verdict = report.fields.find((f) => f.field === 'verdict')!;
      for (const figure of [verdict.percent, verdict.alpha, verdict.cohen!, verdict.fleiss!])
        expect(figure).toMatchObject({ value: null, n: 1, reason: 'not enough data: 1 item (10 needed)' });
      const choice = report.fields.find((f) => f.field === 'choice')!;
      expect(choice.percent).toMatchObject({ value: 0.6, n: 10, reason: null });
      expect(choice.cohen!.value).not.toBeNull();
      for (const person of report.people) expect(person.labelsPerHour).toMatchObject({ value: 120, n: 10 });
    };
    check(await service.dispatch('reviewReport', { project: 'p' }));
    service.stopBackgroundWork();
    db.close();

    const out: string[] = [];
    expect(await runCli(['stats', '--project', 'p', '--json', '--db', dbPath], { out: (l) => out.push(l), err: () => undefined })).toBe(0);
    check((JSON.parse(out.join('\n')) as { review: ReviewReport }).review);
  }, 60_000);
});
