// Names every feature's contract validates the same way: the API, the CLI and the host share them.
import { z } from 'zod';

export const projectName = z
  .string()
  .trim()
  .min(1, 'project name is empty')
  .max(120, 'project name is longer than 120 characters')
  .regex(/^[^/\\\u0000-\u001f]+$/, 'project name has a slash or a control character');
export const annotatorName = z.string().trim().min(1, 'annotator name is empty').max(80);
export const itemId = z.number().int().positive();
