// The rubric a project without one starts the editor on (issue 20, item 23): an image generation project
// was offered the text template (helpfulness and safety of a written answer); it starts on the image
// generation template now, and a text or image-question project keeps the text one.
import { describe, expect, it } from 'vitest';
import { starterTemplate } from '../../../renderer/src/features/rubrics/draft';
import { IMAGE_GENERATION_RUBRIC } from '../../../shared/rubricTemplates';

const project = (images: number, formats: string[]) => ({ images, formats });

describe('the rubric a project starts from', () => {
  it('is the image generation template where the responses are generated images', () => {
    expect(starterTemplate(project(8, ['pickapic'])).name).toBe(IMAGE_GENERATION_RUBRIC.name);
    expect(starterTemplate(project(4, ['arbiter'])).name).toBe(IMAGE_GENERATION_RUBRIC.name);
  });

  it('is the video generation template where a file of generated videos was imported (issue 24)', () => {
    expect(starterTemplate(project(0, ['videoalign'])).name).toBe('video-generation');
    expect(starterTemplate(project(0, ['trl', 'trl-video'])).name).toBe('video-generation');
  });

  it('is the text template for text, and for questions about an image answered in words', () => {
    expect(starterTemplate(project(0, ['trl'])).name).toBe('helpfulness-safety');
    expect(starterTemplate(project(5, ['vl-rewardbench'])).name).toBe('helpfulness-safety');
    expect(starterTemplate(null).name).toBe('helpfulness-safety');
  });
});
