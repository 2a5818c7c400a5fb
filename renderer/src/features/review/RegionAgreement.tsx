// Region agreement on the dashboard (issue 15): where two or more people marked the same image, how well
// their boxes overlap (mean IoU of best-matched boxes) and whether they agree that a tagged thing is not
// present; each figure with the number of images (or image-tags) it rests on. Shown once anyone marked.
// Beside it, the same for marks in time on videos (MomentsReview.tsx).
import type { ReviewReport } from '../../../../shared/api';
import { ChartCard, pct } from './charts';
import { MomentAgreementCard } from './MomentsReview';
import { figureText, plural } from './reviewWords';

export function RegionAgreement({ regions, moments }: { regions: ReviewReport['regions'] | undefined; moments?: ReviewReport['moments'] }) {
  return (
    <>
      <ImageRegions regions={regions} />
      <MomentAgreementCard moments={moments} />
    </>
  );
}

function ImageRegions({ regions }: { regions: ReviewReport['regions'] | undefined }) {
  if (!regions || (regions.boxes.n === 0 && regions.absent.n === 0)) return null;
  const { boxes, absent } = regions;
  return (
    <ChartCard
      testId="region-agreement"
      title="Region marks on images"
      n={`n = ${plural(boxes.n, 'image')} boxed by two or more people; ${plural(absent.n, 'image-tag')} judged “not present”`}
      sentence="Boxes: the mean overlap (IoU, 1 is the same box, 0 none) of each pair of people’s best-matched boxes on an image, a box without a partner counting 0. Not present: how often two people agree whether a tagged thing is on the image, where one said it is not."
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-[13px] tabular-nums">
        <dt className="font-medium">Boxes, mean IoU</dt>
        <dd data-testid="region-iou" data-n={boxes.n}>
          {figureText(boxes)} {boxes.value === null ? <span className="text-faint">({boxes.reason})</span> : <span className="text-muted">over {plural(boxes.n, 'image')}</span>}
        </dd>
        <dt className="font-medium">“Not present” agreement</dt>
        <dd data-testid="region-absent" data-n={absent.n}>
          {figureText(absent, pct)} {absent.value === null ? <span className="text-faint">({absent.reason})</span> : <span className="text-muted">over {plural(absent.n, 'image-tag')}</span>}
        </dd>
      </dl>
    </ChartCard>
  );
}
