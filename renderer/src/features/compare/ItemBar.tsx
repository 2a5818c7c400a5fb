// The thin bar above the prompt: where the item is in the project, the annotator's label and the
// file's (hidden until chosen), and the reading switches with their keys: diff (w), scroll together (l).
import { memo, type ReactNode } from 'react';
import { Kbd } from '../../components/Kbd';
import { grouped } from '../../../../shared/plural';

interface Props {
  itemNumber: number;
  total: number;
  externalId: string | null;
  /** The annotator's current label in words, when there is one. */
  label: string | null;
  /** The file's own preference in words, when it carried one. */
  source: string | null;
  showSource: boolean;
  onRevealSource(): void;
  diffOn: boolean;
  onDiff(): void;
  syncOn: boolean;
  onSync(): void;
}

/** Memoised: the screen renders again for a save's answer (the decision bar's line), the bar only for its own props. */
export const ItemBar = memo(function ItemBar(props: Props) {
  const { source } = props;
  return (
    <div className="flex shrink-0 items-center gap-3 border-b border-line bg-surface-2/60 px-4 py-1 text-[12px] text-muted" data-testid="item-bar">
      <span className="whitespace-nowrap" data-testid="item-position">
        Item <b className="font-semibold text-fg tabular-nums">{props.itemNumber}</b> of <span className="tabular-nums">{grouped(props.total)}</span>
      </span>
      {props.externalId && <span className="truncate text-faint">id {props.externalId}</span>}
      {props.label && (
        <span className="whitespace-nowrap text-fg" data-testid="current-label">
          your label: <b className="font-semibold">{props.label}</b>
        </span>
      )}
      <span className="ml-auto flex items-center gap-3 whitespace-nowrap">
        {source &&
          (props.showSource ? (
            <span className="text-faint" data-testid="source-label" title="The preference the imported file carried, in screen terms">
              file says: {source}
            </span>
          ) : (
            <button className="flex items-center gap-1 text-faint hover:text-fg" onClick={props.onRevealSource} title="Shown after you choose, so it does not anchor you">
              file’s label hidden <Kbd>v</Kbd>
            </button>
          ))}
        {source && <span className="h-4 border-l border-line" aria-hidden />}
        <Switch on={props.diffOn} onClick={props.onDiff} keyName="w" testid="diff-toggle" title="Mark the words only one response has (w). Shows the text as written, without formatting.">
          Diff
        </Switch>
        <Switch on={props.syncOn} onClick={props.onSync} keyName="l" testid="sync-toggle" sideBySideOnly title="Scroll the two columns together, matched by how far through each you are (l). Remembered on this machine.">
          Scroll together
        </Switch>
      </span>
    </div>
  );
});

interface SwitchProps {
  on: boolean;
  onClick(): void;
  keyName: string;
  testid: string;
  title: string;
  /** Hidden while the columns stack (narrow windows), where it would do nothing. */
  sideBySideOnly?: boolean;
  children: ReactNode;
}

function Switch({ on, onClick, keyName, testid, title, sideBySideOnly, children }: SwitchProps) {
  return (
    <button
      onClick={onClick}
      aria-pressed={on}
      title={title}
      className={`${sideBySideOnly ? 'hidden wide:flex' : 'flex'} items-center gap-1.5 rounded px-1.5 py-0.5 ${on ? 'bg-accent-soft font-medium text-accent ring-1 ring-accent/60' : 'hover:text-fg'}`}
      data-testid={testid}
    >
      <span className={`inline-block h-1.5 w-1.5 rounded-full ${on ? 'bg-accent' : 'border border-line-strong'}`} aria-hidden />
      {children}
      <Kbd>{keyName}</Kbd>
    </button>
  );
}
