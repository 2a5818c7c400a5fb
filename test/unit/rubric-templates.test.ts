// The rubric templates (shared/rubricTemplates.ts) are rubrics shared/rubric.ts accepts as they are, the
// editor's draft of one checks clean, and the image-generation one rates the aspects generated images are
// judged on, with hotkeys that are free while rating (digits rate; y / n, x and - answer a criterion).
import { describe, expect, it } from 'vitest';
import { checkRubricFile } from '../../shared/rubric';
import { IMAGE_GENERATION_RUBRIC } from '../../shared/rubricTemplates';
import { checkDraft, helpfulnessSafetyTemplate, imageGenerationTemplate } from '../../renderer/src/features/rubrics/draft';

describe('image-generation rubric template', () => {
  it('is a valid rubric file with the five aspects, each 1 to 5', () => {
    const checked = checkRubricFile(IMAGE_GENERATION_RUBRIC);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value.name).toBe('image-generation');
    expect(checked.value.criteria.map((c) => [c.key, c.scale])).toEqual(
      ['text_alignment', 'fidelity', 'aesthetics', 'plausibility', 'overall'].map((key) => [key, { type: 'likert', min: 1, max: 5 }]),
    );
    expect(checked.value.criteria).toEqual(IMAGE_GENERATION_RUBRIC.criteria);
  });

  it('starts the editor with a draft that saves as it is, beside the helpfulness + safety one', () => {
    const draft = imageGenerationTemplate();
    expect(draft.name).toBe('image-generation');
    expect(checkDraft(draft).criteria).toEqual(IMAGE_GENERATION_RUBRIC.criteria);
    expect(helpfulnessSafetyTemplate().name).toBe('helpfulness-safety');
  });

  it('uses hotkeys the rating keys leave free', () => {
    const hotkeys = IMAGE_GENERATION_RUBRIC.criteria.map((c) => c.hotkey);
    expect(hotkeys).toEqual(['t', 'f', 'e', 'p', 'o']);
    for (const key of hotkeys) expect(['y', 'n', 'x', '-', 'z']).not.toContain(key);
  });
});

describe('video-generation rubric template (issue 24)', () => {
  it('is a valid rubric of VideoAlign’s four axes, each 1 to 5 and none required (a pair judged by winners alone is whole)', async () => {
    const { VIDEO_GENERATION_RUBRIC, VIDEOALIGN_AXES } = await import('../../shared/rubricTemplates');
    const { videoGenerationTemplate } = await import('../../renderer/src/features/rubrics/draft');
    const checked = checkRubricFile(VIDEO_GENERATION_RUBRIC);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value.criteria.map((c) => [c.key, c.scale, c.required])).toEqual(Object.values(VIDEOALIGN_AXES).map((key) => [key, { type: 'likert', min: 1, max: 5 }, false]));
    expect(checkDraft(videoGenerationTemplate()).criteria).toEqual(VIDEO_GENERATION_RUBRIC.criteria);
    const hotkeys = VIDEO_GENERATION_RUBRIC.criteria.map((c) => c.hotkey);
    expect(hotkeys).toEqual(['v', 'm', 't', 'o']);
    for (const key of hotkeys) expect(['y', 'n', 'x', '-', 'z']).not.toContain(key);
  });
});

describe('VideoFeedback rubric template (issue 24)', () => {
  it('is a valid rubric of VideoFeedback’s five aspects, each 1 to 4, none required, hotkeys clear of the sheet’s own', async () => {
    const { VIDEO_FEEDBACK_RUBRIC, VIDEOFEEDBACK_ASPECTS } = await import('../../shared/rubricTemplates');
    const checked = checkRubricFile(VIDEO_FEEDBACK_RUBRIC);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value.criteria.map((c) => [c.key, c.scale, c.required])).toEqual(Object.values(VIDEOFEEDBACK_ASPECTS).map((key) => [key, { type: 'likert', min: 1, max: 4 }, false]));
    const hotkeys = VIDEO_FEEDBACK_RUBRIC.criteria.map((c) => c.hotkey);
    expect(new Set(hotkeys).size).toBe(5);
    for (const key of hotkeys) expect(['y', 'n', 'x', '-', 'z']).not.toContain(key);
  });
});
