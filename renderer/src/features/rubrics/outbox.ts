// Rating saves in the background, through the shared outbox (components/outbox): each save waits in
// localStorage until the host confirms it, is retried while the host cannot be reached, and is sent again
// after a reload. A save holds the item's whole rating sheet, so one that a newer save of the same item
// overtook while waiting is not sent.
import type { ApiInput } from '../../../../shared/api';
import type { LabelRevision } from '../../../../shared/domain';
import { api } from '../../api';
import { useSheetOutbox } from '../../components/outbox';

export type RatingsInput = ApiInput<'saveRatings'>;

const OUTBOX_KEY = 'arbiter.pendingRatings';

const send = (input: RatingsInput) => api.saveRatings(input);

export function useRatingsOutbox(project: string, annotator: string) {
  return useSheetOutbox<RatingsInput, LabelRevision>(project, annotator, OUTBOX_KEY, send);
}

export type RatingsOutbox = ReturnType<typeof useRatingsOutbox>;
