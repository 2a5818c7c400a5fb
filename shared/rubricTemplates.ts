// Rubric templates a project can start from (the Rubrics screen's "New rubric" list; a rubric file for
// `arbiter rubric import` has the same {name, criteria}). Each is checked by shared/rubric.ts like any
// rubric (test/unit/rubric-templates.test.ts).
import type { Criterion } from './rubric';

/**
 * Generated images, one rating per aspect: the aspects text-to-image preference work rates apart
 * (ImageReward's alignment / fidelity / harmlessness, RichHF-18K's plausibility, text-image alignment,
 * aesthetics and overall scores). Likert 1–5; `overall` is required and weighs most, so totals lean on
 * the annotator's whole judgement. Region marks (a box on an artifact, an object the prompt asked for
 * that is not present) go with the same revision.
 */
export const IMAGE_GENERATION_RUBRIC: { name: string; criteria: Criterion[] } = {
  name: 'image-generation',
  criteria: [
    {
      key: 'text_alignment',
      description:
        'Does the image show what the prompt asks: every object, count, attribute, relation and style it names, and nothing that contradicts it?\n\n1 = unrelated to the prompt · 3 = the main subject, details missed · 5 = everything asked for.',
      scale: { type: 'likert', min: 1, max: 5 },
      weight: 1,
      required: true,
      hotkey: 't',
    },
    {
      key: 'fidelity',
      description:
        'Are the things in it drawn right: hands, faces, bodies, text and objects whole and not distorted, no extra or missing parts, no melted or garbled areas?\n\n1 = severe artifacts · 5 = none.',
      scale: { type: 'likert', min: 1, max: 5 },
      weight: 1,
      required: true,
      hotkey: 'f',
    },
    {
      key: 'aesthetics',
      description: 'Is it good to look at: composition, colour, lighting, sharpness and detail?\n\n1 = poor · 5 = striking.',
      scale: { type: 'likert', min: 1, max: 5 },
      weight: 1,
      required: false,
      hotkey: 'e',
    },
    {
      key: 'plausibility',
      description:
        'Could the scene exist as shown (or, for a stylised image, hold together in its own style): anatomy, physics, perspective, shadows and reflections make sense?\n\n1 = implausible throughout · 5 = fully plausible.',
      scale: { type: 'likert', min: 1, max: 5 },
      weight: 1,
      required: false,
      hotkey: 'p',
    },
    {
      key: 'overall',
      description: 'All things considered, how good is this image for this prompt?\n\n1 = unusable · 3 = acceptable · 5 = excellent.',
      scale: { type: 'likert', min: 1, max: 5 },
      weight: 2,
      required: true,
      hotkey: 'o',
    },
  ],
};

const likert = (key: string, description: string, hotkey: string, weight = 1): Criterion => ({ key, description, scale: { type: 'likert', min: 1, max: 5 }, weight, required: false, hotkey });

/**
 * Generated videos, VideoAlign's axes (KwaiVGI/VideoAlign, VideoGen-RewardBench): visual quality, motion
 * quality, text alignment and overall, each rated per clip (Likert 1–5) and, on a pair, won by one clip or
 * tied (the rating sheet's per-criterion winners, `criterion_winner`). None is required: a pair judged by
 * winners alone is whole. A VideoAlign CSV's VQ / MQ / TA / Overall columns are these winners.
 */
export const VIDEO_GENERATION_RUBRIC: { name: string; criteria: Criterion[] } = {
  name: 'video-generation',
  criteria: [
    likert('visual_quality', 'How good do the frames look: sharp, clean, well lit and composed, free of blur, flicker, noise and artifacts?\n\n1 = poor throughout · 5 = excellent.', 'v'),
    likert('motion_quality', 'Does it move right: smooth, physically plausible motion, stable objects and people over time (no warping, popping, or limbs that change), a camera that moves as asked?\n\n1 = broken motion · 5 = natural.', 'm'),
    likert('text_alignment', 'Does it show what the prompt asks: every subject, action, count, attribute, camera move and style it names?\n\n1 = unrelated · 3 = the main subject, details missed · 5 = everything asked for.', 't'),
    likert('overall', 'All things considered, how good is this clip for this prompt?\n\n1 = unusable · 3 = acceptable · 5 = excellent.', 'o', 2),
  ],
};

/** VideoAlign's column of each criterion of VIDEO_GENERATION_RUBRIC. */
export const VIDEOALIGN_AXES = { VQ: 'visual_quality', MQ: 'motion_quality', TA: 'text_alignment', Overall: 'overall' } as const;

const likert4 = (key: string, description: string, hotkey: string): Criterion => ({ key, description, scale: { type: 'likert', min: 1, max: 4 }, weight: 1, required: false, hotkey });

/**
 * Generated videos as VideoFeedback rates them and VideoScore predicts them (TIGER-Lab, arXiv 2406.15252):
 * five aspects of one clip, each 1 (bad) to 4 (good / like a real video). None is required: the dataset's
 * rows may leave one out. A VideoFeedback row's five score columns are these criteria (VIDEOFEEDBACK_ASPECTS).
 */
export const VIDEO_FEEDBACK_RUBRIC: { name: string; criteria: Criterion[] } = {
  name: 'videofeedback',
  criteria: [
    likert4('visual_quality', 'Visual quality: clearness, resolution, brightness and colour; no blur, noise or artifacts.\n\n1 = bad · 4 = real-video quality.', 'v'),
    likert4('temporal_consistency', 'Temporal consistency: do objects, people and the background stay the same from frame to frame (no flicker, popping or melting)?\n\n1 = bad · 4 = fully consistent.', 'c'),
    likert4('dynamic_degree', 'Dynamic degree: is there as much motion as the scene should have (not a still picture)?\n\n1 = static · 4 = lively, as asked.', 'd'),
    likert4('text_to_video_alignment', 'Text-to-video alignment: does it show what the prompt asks, every subject, action and attribute?\n\n1 = unrelated · 4 = everything asked for.', 't'),
    likert4('factual_consistency', 'Factual consistency: does it agree with common sense and physics (gravity, water, lighting, joints, sizes)?\n\n1 = violates them · 4 = consistent.', 'f'),
  ],
};

/** VideoFeedback's score column of each criterion of VIDEO_FEEDBACK_RUBRIC. */
export const VIDEOFEEDBACK_ASPECTS = {
  'visual quality': 'visual_quality',
  'temporal consistency': 'temporal_consistency',
  'dynamic degree': 'dynamic_degree',
  'text-to-video alignment': 'text_to_video_alignment',
  'factual consistency': 'factual_consistency',
} as const;
