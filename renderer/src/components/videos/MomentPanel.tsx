// The marks in time of the item (momentMarks.ts) under the first response's video: the list (MomentList.tsx)
// and its keys. Shift+T an instant at the playhead on the video last pointed at, Shift+L the loop range as a
// range mark, Shift+N / Shift+P the next / previous mark, Shift+X removes the selected one, Ctrl+Z takes the
// last change of marks back (then the screen's undo again). Under the leading video it sits in the transport
// bar (VideoTransport.tsx); when a prompt's clip leads (it keeps the bar), under the first response's video,
// since marks are the responses' (VideoView.tsx). The letters are shifted: the header's screen keys take
// i (Rubric) and m (Models).
import { useContext, useEffect, type RefObject } from 'react';
import { ShellContext } from '../../context';
import { useGlobalKeys } from '../keys';
import { imageMarking } from '../mediaFocus';
import { momentMarks } from './momentMarks';
import { MomentList, openTagBox } from './MomentList';
import { useVideoSync, videoSync } from './syncGroup';

interface PanelProps {
  project: string;
  /** An element of the screen (a response's video figure): the item and task the marks are saved on. */
  anchor: RefObject<HTMLElement | null>;
  nameOf: (at: number) => string;
}

export function MomentPanel({ project, anchor, nameOf }: PanelProps) {
  const s = useVideoSync();
  const annotator = useContext(ShellContext)?.annotator ?? '';
  // The item's marks: read when an item is shown under this panel (open is a no-op for the same item).
  useEffect(() => {
    if (anchor.current) momentMarks.open(anchor.current, project, annotator);
  });
  useEffect(() => () => momentMarks.close(), []);
  const markInstant = () => {
    const { time, focus, playing } = videoSync.state;
    momentMarks.add(focus, time);
    if (!playing) openTagBox(momentMarks.state.selected ?? 0);
  };
  const markLoop = () => {
    const { loop, focus } = videoSync.state;
    if (!loop) return momentMarks.say('set a loop first (Shift+I, Shift+O), then Shift+L makes it a mark');
    momentMarks.add(focus, loop.from, loop.to);
    videoSync.setLoop('clear');
    if (!videoSync.state.playing) openTagBox(momentMarks.state.selected ?? 0);
  };
  const goToMark = (direction: 1 | -1) => {
    const { marks } = momentMarks.state;
    const t = videoSync.state.time;
    const order = marks.map((m, i) => ({ m, i }));
    const next = direction === 1 ? order.find(({ m }) => m.from > t + 1e-3) : order.filter(({ m }) => m.from < t - 1e-3).at(-1);
    if (!next) return;
    momentMarks.select(next.i);
    videoSync.seek(next.m.from);
  };
  useGlobalKeys(
    (event) => {
      if (imageMarking()) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'z') {
        // The last change of marks first; none left (or none made here): the screen's undo.
        if (momentMarks.undo()) event.preventDefault();
        return;
      }
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const act: Record<string, () => void> = {
        T: markInstant,
        L: markLoop,
        N: () => goToMark(1),
        P: () => goToMark(-1),
        X: () => momentMarks.state.selected !== null && momentMarks.remove(momentMarks.state.selected),
      };
      const run = act[event.key];
      if (!run) return;
      event.preventDefault();
      run();
    },
    true,
    true,
  );
  return <MomentList focus={s.focus} letters={videoSync.responseVideos()} nameOf={nameOf} />;
}
