// The zoom view's arithmetic (renderer/src/components/images/zoom.ts): fit, clamping, zoom at a point,
// pans, and two panes of different images sharing one view.
import { describe, expect, it } from 'vitest';
import { clampView, drawnBox, FITTED, fitScale, maxScale, panBy, panStep, pixelScale, zoomBy, zoomWords, ZOOM_STEP, type PaneGeometry } from '../../../renderer/src/components/images/zoom';

const wide: PaneGeometry = { imageW: 2000, imageH: 1000, paneW: 800, paneH: 600 };
const square: PaneGeometry = { imageW: 512, imageH: 512, paneW: 800, paneH: 600 };

describe('fit', () => {
  it('fits the whole image in the pane, never cropped, centred', () => {
    expect(fitScale(wide)).toBeCloseTo(0.4);
    const box = drawnBox(FITTED, wide);
    expect(box).toEqual({ left: 0, top: 100, width: 800, height: 400 });
    const sq = drawnBox(FITTED, square);
    expect(sq.width).toBeCloseTo(600);
    expect(sq.height).toBeCloseTo(600);
    expect(sq.left).toBeCloseTo(100);
    expect(sq.top).toBeCloseTo(0);
  });

  it('a small image is enlarged to fit (pixels as squares past 3 x)', () => {
    const tiny: PaneGeometry = { imageW: 32, imageH: 16, paneW: 800, paneH: 600 };
    expect(fitScale(tiny)).toBe(25);
    expect(pixelScale(FITTED, tiny)).toBe(25);
    expect(maxScale(tiny)).toBe(8);
  });

  it('a pane not measured yet draws nothing and does not divide by zero', () => {
    const unmeasured = { ...wide, paneW: 0, paneH: 0 };
    const box = drawnBox({ scale: 4, cx: 0.9, cy: 0.1 }, unmeasured);
    expect(Number.isFinite(box.width) && Number.isFinite(box.left)).toBe(true);
  });
});

describe('clampView', () => {
  it('keeps the zoom between fit and the maximum', () => {
    expect(clampView({ scale: 0.2, cx: 0.5, cy: 0.5 }, wide).scale).toBe(1);
    expect(clampView({ scale: 1e6, cx: 0.5, cy: 0.5 }, wide).scale).toBe(maxScale(wide));
    expect(clampView({ scale: Number.NaN, cx: 0.5, cy: 0.5 }, wide).scale).toBe(1);
  });

  it('centres an axis that fits and stops at the edges of one that does not', () => {
    // At 2 x the wide image is 1600 x 800 in an 800 x 600 pane: x may go 0.25..0.75, y 0.375..0.625.
    const v = clampView({ scale: 2, cx: 0, cy: 1 }, wide);
    expect(v.cx).toBeCloseTo(0.25);
    expect(v.cy).toBeCloseTo(0.625);
    const box = drawnBox(v, wide);
    expect(box.left).toBeCloseTo(0); // the left edge at the pane's left edge, no margin
    expect(box.top + box.height).toBeCloseTo(600); // the bottom edge at the pane's bottom
    // At fit the height (400 of 600) fits: centred whatever is asked.
    expect(clampView({ scale: 1, cx: 0.9, cy: 0.9 }, wide)).toEqual(FITTED);
  });
});

describe('zoomBy', () => {
  it('zooms about the centre by default and back to fit', () => {
    const in1 = zoomBy(FITTED, ZOOM_STEP, wide);
    expect(in1.scale).toBeCloseTo(1.25);
    expect(in1.cx).toBeCloseTo(0.5);
    const out = zoomBy(zoomBy(in1, 1 / ZOOM_STEP, wide), 1 / ZOOM_STEP, wide);
    expect(out).toEqual(FITTED);
  });

  it('keeps the image point under the pointer where it is', () => {
    const at = { x: 600, y: 250 };
    const before = drawnBox(FITTED, wide);
    const fx = (at.x - before.left) / before.width;
    const fy = (at.y - before.top) / before.height;
    const v = zoomBy(FITTED, 3, wide, at);
    const after = drawnBox(v, wide);
    expect(after.left + fx * after.width).toBeCloseTo(at.x);
    expect(after.top + fy * after.height).toBeCloseTo(at.y);
  });
});

describe('pan', () => {
  it('an arrow moves a share of the pane, and stops at the edge', () => {
    const v = { scale: 4, cx: 0.5, cy: 0.5 };
    const right = panStep(v, 'right', wide);
    // 15 % of 800 px over an image drawn 3200 px wide.
    expect(right.cx - 0.5).toBeCloseTo((0.15 * 800) / 3200);
    const down = panStep(v, 'down', wide);
    expect(down.cy - 0.5).toBeCloseTo((0.15 * 600) / 1600);
    let far = v;
    for (let i = 0; i < 100; i++) far = panStep(far, 'left', wide);
    expect(far.cx).toBeCloseTo(800 / 2 / 3200);
    expect(drawnBox(far, wide).left).toBeCloseTo(0);
  });

  it('does nothing at fit (the whole image is in view)', () => {
    expect(panBy(FITTED, 300, 300, wide)).toEqual(FITTED);
  });
});

describe('two panes, one view (synced)', () => {
  it('shows the same part of two images of different sizes at the same relative zoom', () => {
    const a: PaneGeometry = { imageW: 1024, imageH: 1024, paneW: 600, paneH: 700 };
    const b: PaneGeometry = { imageW: 2048, imageH: 2048, paneW: 600, paneH: 700 };
    let v = zoomBy(FITTED, 4, a);
    v = panStep(panStep(v, 'right', a), 'down', a);
    const boxA = drawnBox(v, a);
    const boxB = drawnBox(v, b);
    // The same fraction of each image sits at each pane's centre, and both are drawn the same size.
    expect((300 - boxA.left) / boxA.width).toBeCloseTo((300 - boxB.left) / boxB.width);
    expect((350 - boxA.top) / boxA.height).toBeCloseTo((350 - boxB.top) / boxB.height);
    expect(boxA.width).toBeCloseTo(boxB.width);
    expect(zoomWords(v)).toBe('400 %');
    expect(zoomWords(FITTED)).toBe('fit');
  });
});

describe('actual pixels (key 1) and the full-size words', () => {
  it('shows one image pixel as one CSS pixel, keeping the centre; a small image stays at fit', async () => {
    const { actualSize, fullSizeWords } = await import('../../../renderer/src/components/images/zoom');
    const big: PaneGeometry = { imageW: 2048, imageH: 2048, paneW: 1400, paneH: 850 };
    expect(fullSizeWords(FITTED, big)).toBe('42 % of full size');
    const one = actualSize({ scale: 1, cx: 0.45, cy: 0.6 }, big);
    expect(pixelScale(one, big)).toBeCloseTo(1, 6);
    expect(one.cx).toBeCloseTo(0.45, 6);
    expect(one.cy).toBeCloseTo(0.6, 6);
    expect(fullSizeWords(one, big)).toBe('100 % of full size');
    expect(actualSize(FITTED, square).scale).toBe(1);
  });
});
