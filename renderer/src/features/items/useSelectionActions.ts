// The explorer's actions on its selection: select every item the query matches (its ids from the host,
// in the sort's order), send the selection to review, mark it gold, open the export panel scoped to it. Each says in a
// short note what it did, or why not.
import { useEffect, useState } from 'react';
import { MAX_SENT, type ItemSort } from '../../../../shared/api';
import { plural } from '../../../../shared/plural';
import { api, errorMessage } from '../../api';

export function useSelectionActions(project: string, annotator: string, selected: ReadonlySet<number>, query: string, changed: () => void) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; bad: boolean } | null>(null);
  const [exporting, setExporting] = useState(false);
  // A cleared selection takes its note and its export panel with it: they spoke of the rows it held.
  const empty = selected.size === 0;
  useEffect(() => {
    if (!empty) return;
    setNote(null);
    setExporting(false);
  }, [empty]);

  const run = async <T>(work: () => Promise<T>, words: (result: T) => string): Promise<T | null> => {
    setBusy(true);
    setNote(null);
    try {
      const result = await work();
      setNote({ text: words(result), bad: false });
      return result;
    } catch (e) {
      setNote({ text: errorMessage(e), bad: true });
      return null;
    } finally {
      setBusy(false);
    }
  };

  const selectAll = async (sort: ItemSort) =>
    (await run(
      () => api.matchingIds({ project, annotator, query, sort }),
      (r) => (r.ids.length < r.matching ? `Selected the first ${r.ids.length.toLocaleString()} of ${r.matching.toLocaleString()}.` : `Selected all ${plural(r.ids.length, 'item')}.`),
    ))?.ids ?? null;

  const markGold = () => {
    const itemIds = [...selected];
    void run(
      () => api.markGold({ project, annotator, itemIds }),
      (r) => `Gold: the file’s own labels of ${plural(r.withFileLabels, 'item')} of ${r.items.toLocaleString()}${r.withFileLabels < r.items ? ' (the others have none)' : ''}.`,
    ).then((r) => r && changed());
  };

  const sendToReview = () => {
    const itemIds = [...selected];
    if (itemIds.length > MAX_SENT) {
      setNote({ text: `At most ${MAX_SENT.toLocaleString()} items go to review at a time; ${itemIds.length.toLocaleString()} are selected.`, bad: true });
      return;
    }
    void run(
      () => api.sendToReview({ project, annotator, itemIds }),
      (r) => `Sent ${plural(r.sent, 'item')} to review as ${annotator}${r.dropped ? ` (the ${plural(r.dropped, 'oldest send')} left the queue)` : ''}.`,
    );
  };

  return { busy, note, exporting, setExporting, selectAll, markGold, sendToReview };
}
