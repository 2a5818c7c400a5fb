"""A CLIP-style image reward model made with transformers and exported to ONNX the way docs/models.md
says, for test/scorer/image-clip-python.test.ts: a small CLIPModel built from a config (random weights,
seeded; nothing is downloaded) wrapped so that it returns one reward per (image, prompt) pair,
logits [batch, 1] = logit_scale · cos(image embedding, text embedding), exported with torch.onnx.export.
It then scores the job's pairs in torch, one at a time, with transformers' own CLIP image processor and
the tokenizer.json from the folder (the `tokenizers` library), for the test to compare with Arbiter's.

    python clip_export.py JOB.json      (JOB: {"dir", "vocab_size", "pairs": [{"image", "prompt"}], "out"})
"""
import json
import sys

import PIL.Image
import PIL.ImageOps
import torch
from tokenizers import Tokenizer
from transformers import CLIPConfig, CLIPModel

try:
    from transformers import CLIPImageProcessorPil as Processor
except ImportError:
    from transformers import CLIPImageProcessor as Processor


class ClipReward(torch.nn.Module):
    """What an exported CLIP-score reward model computes: one number per (image, prompt) row."""

    def __init__(self, model: CLIPModel):
        super().__init__()
        self.model = model

    def forward(self, pixel_values, input_ids, attention_mask):
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, pixel_values=pixel_values)
        return self.model.logit_scale.exp() * (out.image_embeds * out.text_embeds).sum(-1, keepdim=True)


def main() -> None:
    job = json.load(open(sys.argv[1]))
    folder = job["dir"]
    config = CLIPConfig(
        text_config=dict(vocab_size=job["vocab_size"], hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
                         max_position_embeddings=77, bos_token_id=2, eos_token_id=3, pad_token_id=0),
        vision_config=dict(image_size=32, patch_size=8, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37),
        projection_dim=16,
    )
    torch.manual_seed(0)
    reward = ClipReward(CLIPModel(config).eval()).eval()
    sample = (torch.zeros(2, 3, 32, 32), torch.tensor([[2, 5, 6, 3], [2, 7, 3, 0]]), torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]]))
    torch.onnx.export(
        reward, sample, f"{folder}/model.onnx", dynamo=False, opset_version=17,
        input_names=["pixel_values", "input_ids", "attention_mask"], output_names=["logits"],
        dynamic_axes={"pixel_values": {0: "batch"}, "input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "sequence"}, "logits": {0: "batch"}},
    )
    config.save_pretrained(folder)

    processor = Processor(**{k: v for k, v in json.load(open(f"{folder}/preprocessor_config.json")).items() if k != "image_processor_type"})
    tokenizer = Tokenizer.from_file(f"{folder}/tokenizer.json")
    rewards = []
    with torch.no_grad():
        for pair in job["pairs"]:
            image = PIL.Image.open(pair["image"])
            image.load()
            if image.getexif().get(PIL.Image.ExifTags.Base.Orientation) is not None:
                image = PIL.ImageOps.exif_transpose(image)
            pixels = torch.from_numpy(processor(images=image, return_tensors="np")["pixel_values"])
            ids = torch.tensor([tokenizer.encode(pair["prompt"]).ids])
            rewards.append(reward(pixels, ids, torch.ones_like(ids)).item())
    json.dump({"rewards": rewards, "torch": torch.__version__}, open(job["out"], "w"))


if __name__ == "__main__":
    main()
