// arbiter-model.json: what cannot be inferred from a model folder (documented in docs/models.md), and the
// signatures of a folder's files. In base/ because both the scorer (reading a folder) and the store (keeping
// what it read) hold them.
// Strict objects, so that a misspelt key is an error rather than a silently ignored setting.
import { z } from 'zod';

const side = z.enum(['left', 'right']);

export const manifestSchema = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  kind: z.enum(['outcome', 'process']).optional(),
  input: z
    .strictObject({
      mode: z.enum(['chat_template', 'text_pair', 'plain']).optional(),
      max_length: z.number().int().min(8).max(1_048_576).optional(),
      truncation_side: side.optional(),
      padding_side: side.optional(),
      system_prompt: z.string().optional(),
      plain_template: z
        .string()
        .refine((t) => t.includes('{response}'), 'must contain {response}')
        .optional(),
    })
    .optional(),
  output: z
    .strictObject({
      name: z.string().min(1).optional(),
      index: z.number().int().min(0).optional(),
    })
    .optional(),
  // Video reward models (pixel_values [batch, frames, 3, H, W]): how many frames, sampled at what rate.
  video: z
    .strictObject({
      frames: z.number().int().min(1).max(256).optional(),
      fps: z.number().positive().max(120).optional(),
    })
    .optional(),
  process: z
    .strictObject({
      step_separator: z.string().min(1),
      step_suffix: z.string().optional(),
      step_join: z.string().optional(),
      score: z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('class_probability'), class_index: z.number().int().min(0).default(1) }),
        z.strictObject({ type: z.literal('token_pair'), positive_token: z.string().min(1), negative_token: z.string().min(1) }),
      ]),
      aggregate: z.enum(['min', 'last', 'product', 'mean']).optional(),
    })
    .optional(),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** Parses arbiter-model.json text; throws an Error naming each bad field. */
export function parseManifest(text: string): Manifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`arbiter-model.json is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
    throw new Error(`arbiter-model.json is invalid: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** A file that defines a model's behaviour, with size and mtime, to notice later changes cheaply. */
export interface FileSignature {
  name: string;
  size: number;
  mtimeMs: number;
}
