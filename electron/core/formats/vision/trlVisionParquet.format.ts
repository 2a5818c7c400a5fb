// TRL vision preference · Parquet with the Hugging Face Image feature: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'trl-vision-parquet',
  family: 'images',
  title: "TRL vision preference · Parquet with the Hugging Face Image feature",
  write: (passes) => passes.trlVision,
  carries: 'content',
  doc: {
    source: "Hugging Face TRL (vision)",
    keeps: "messages, images as Parquet Image cells",
    loses: "models",
  },
};
