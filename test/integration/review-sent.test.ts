// "Send to review" on a real SQLite file: a lead sends items of every shape from the items explorer's
// selection; each is queued with the reason "sent" and the lead's name, in its task's queue (a pair
// pairwise, three responses ranking, a chain steps, a single response verdict; an item people split on
// gets the reason added to its row); a resend keeps one row; a stray item sends nothing.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importLines } from '../../electron/core/formats';
import { checkedSettings } from '../../electron/core/hub/pullChecks';
import { ArbiterService } from '../../electron/core/service/index';
import { teamSettingsOf } from '../../electron/core/store/hub';
import { openDb } from '../../electron/core/store/db';
import { tempDir } from '../helpers/tmp';

async function setup() {
  const dbPath = join(tempDir(), 'a.db');
  const db = openDb(dbPath);
  const items = [
    { id: 'pair', prompt: 'P?', responses: [{ text: 'a' }, { text: 'b' }] },
    { id: 'split', prompt: 'S?', responses: [{ text: 'a' }, { text: 'b' }] },
    { id: 'rank', prompt: 'R?', responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
    { id: 'chain', prompt: 'C?', responses: [{ text: '1 + 1 = 2. So 2.', steps: ['1 + 1 = 2.', 'So 2.'] }] },
    { id: 'single', prompt: 'V?', responses: [{ text: 'yes' }] },
    { id: 'other', prompt: 'O?', responses: [{ text: 'a' }, { text: 'b' }] },
  ];
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines: items.map((i) => JSON.stringify(i)), sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'lead' });
  const { rows } = await service.dispatch('listItems', { project: 'p', annotator: 'lead', limit: 50 });
  const ids = new Map(rows.map((r) => [r.externalId!, r.id]));
  return { db, service, ids: (...names: string[]) => names.map((n) => ids.get(n)!) };
}

describe('send to review', () => {
  it('queues sent items of every shape with the reason and who sent them', async () => {
    const { service, ids } = await setup();
    const [split] = ids('split');
    await service.dispatch('saveLabel', { project: 'p', annotator: 'ana', itemId: split!, choice: 'A', shownOrder: [0, 1] });
    await service.dispatch('saveLabel', { project: 'p', annotator: 'ben', itemId: split!, choice: 'B', shownOrder: [0, 1] });
    expect((await service.dispatch('reviewQueue', { project: 'p', reason: 'sent' })).total).toBe(0);

    const result = await service.dispatch('sendToReview', { project: 'p', annotator: 'lead', itemIds: ids('pair', 'split', 'rank', 'chain', 'single') });
    expect(result).toEqual({ sent: 5, dropped: 0 });
    const queued = async (task: 'pairwise' | 'ranking' | 'steps' | 'verdict') =>
      (await service.dispatch('reviewQueue', { project: 'p', task, reason: 'sent' })).rows.map((r) => ({ id: r.externalId, reasons: r.reasons, by: r.sent?.by, votes: r.votes }));
    expect(await queued('pairwise')).toEqual([
      { id: 'split', reasons: ['annotators', 'sent'], by: 'lead', votes: { A: 1, B: 1 } },
      { id: 'pair', reasons: ['sent'], by: 'lead', votes: {} },
    ]);
    expect(await queued('ranking')).toEqual([{ id: 'rank', reasons: ['sent'], by: 'lead', votes: {} }]);
    expect(await queued('steps')).toEqual([{ id: 'chain', reasons: ['sent'], by: 'lead', votes: {} }]);
    expect(await queued('verdict')).toEqual([{ id: 'single', reasons: ['sent'], by: 'lead', votes: {} }]);
    const report = await service.dispatch('reviewReport', { project: 'p' });
    expect(report.queue.byReason.sent).toBe(5);

    // Sent again by someone else: one row, the newest send's name.
    await service.dispatch('sendToReview', { project: 'p', annotator: 'cleo', itemIds: ids('pair') });
    expect((await queued('pairwise')).filter((r) => r.id === 'pair')).toEqual([{ id: 'pair', reasons: ['sent'], by: 'cleo', votes: {} }]);
  });

  it('keeps the team settings a hub takes valid: the sent list passes the checks a desktop applies to them', async () => {
    const { db, service, ids } = await setup();
    await service.dispatch('sendToReview', { project: 'p', annotator: 'lead', itemIds: ids('pair', 'rank') });
    const team = teamSettingsOf(db, 1).settings as { reviewSent?: { uid: string; by: string }[] };
    expect(team.reviewSent?.map((e) => e.by)).toEqual(['lead', 'lead']);
    expect(checkedSettings(team)).toMatchObject({ ok: true });
    // A malformed list from a hub is refused, as any bad setting is.
    expect(checkedSettings({ ...team, reviewSent: [{ uid: 7, by: 'x', at: 'y' }] })).toMatchObject({ ok: false });
    // A settings change keeps the list.
    await service.dispatch('updateProjectSettings', { project: 'p', settings: { overlap: 2 } });
    expect((await service.dispatch('reviewReport', { project: 'p' })).queue.byReason.sent).toBe(2);
  });

  it('sends nothing when an item is not the project’s', async () => {
    const { service, ids } = await setup();
    await expect(service.dispatch('sendToReview', { project: 'p', annotator: 'lead', itemIds: [...ids('pair'), 99_999] })).rejects.toThrow(/99999|item/i);
    expect((await service.dispatch('reviewQueue', { project: 'p', reason: 'sent' })).total).toBe(0);
  });
});
