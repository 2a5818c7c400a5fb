// Critique saves in the background, through the shared outbox (components/outbox): kept in localStorage
// until the host confirms them, retried while it cannot be reached, sent again after a reload. A save
// holds every response's critique of the item, so one overtaken by a newer save of the item is not sent.
import type { ApiInput } from '../../../../shared/api';
import type { LabelRevision } from '../../../../shared/domain';
import { api } from '../../api';
import { useSheetOutbox } from '../../components/outbox';

export type CritiqueInput = ApiInput<'saveCritique'>;

const OUTBOX_KEY = 'arbiter.pendingCritiques';

const send = (input: CritiqueInput) => api.saveCritique(input);

export function useCritiquesOutbox(project: string, annotator: string) {
  return useSheetOutbox<CritiqueInput, LabelRevision>(project, annotator, OUTBOX_KEY, send);
}
