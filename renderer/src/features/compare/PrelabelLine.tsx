// One quiet line above the compare screen's choices: this item's pre-labels when they may be shown; else,
// in blind mode, what the models said about the item just labeled; in assist mode, why there are none.
import type { ReactNode } from 'react';
import type { ItemView } from '../../../../shared/api';
import type { Choice } from '../../../../shared/domain';
import type { ItemPrelabels } from '../../../../shared/scoring';
import { Kbd } from '../../components/Kbd';
import type { LoadedPrelabels } from '../../components/prelabels';
import { ModelVotes } from './PrelabelViews';

/** Blind mode: what the models said about the item just labeled, shown once the choice is made. */
export interface Reveal {
  itemId: number;
  itemNumber: number;
  choice: Choice;
  words: string;
  order: number[];
  loaded: LoadedPrelabels | null;
}

interface Props {
  item: ItemView | null;
  mode: 'blind' | 'assist';
  prelabels: ItemPrelabels | null;
  /** This item's pre-labels may be shown (assist, or blind once labeled). */
  show: boolean;
  labeled: boolean;
  reveal: Reveal | null;
  /** This item's pre-labels as loaded (null while on their way). */
  loaded: LoadedPrelabels | null;
}

/** The line, or null when there is nothing to say (the decision bar then leaves its row out). Called as a function: it has no state. */
export function prelabelLine({ item, mode, prelabels, show, labeled, reveal, loaded }: Props): ReactNode {
  if (item && show && prelabels)
    return (
      <ModelVotes
        pre={prelabels}
        order={item.shownOrder}
        choice={labeled ? item.label!.choice : undefined}
        lead={labeled ? (mode === 'blind' ? 'Models (shown because you labeled this item):' : 'Models vs your label:') : 'Models:'}
      />
    );
  if (mode === 'blind' && reveal && reveal.itemId !== item?.id && reveal.loaded?.data && reveal.loaded.data.models.length > 0)
    return (
      <ModelVotes
        pre={reveal.loaded.data}
        order={reveal.order}
        choice={reveal.choice}
        withSteps
        testid="prelabel-reveal"
        lead={
          <>
            <span className="rounded bg-surface-2 px-1 text-faint">previous</span> Item {reveal.itemNumber}, you chose{' '}
            <b className="font-medium text-fg">{reveal.words}</b>; models:
          </>
        }
      />
    );
  if (mode === 'assist' && item && loaded)
    return (
      <div className="text-[12.5px] text-faint" data-testid="prelabel-none">
        {loaded.error ? (
          <span className="text-bad">Pre-labels could not be read: {loaded.error}</span>
        ) : (
          <>
            No model scores for this item yet — score the project on the Models screen <Kbd>m</Kbd>.
          </>
        )}
      </div>
    );
  return null;
}
