"""TRL reads Arbiter's exports and trains on them: one training step each, on a tiny model built from a config.

Nothing is downloaded: the model is a Qwen2 of one layer made from a config, and the tokenizer a byte-level
BPE trained in memory on the files' own text, wrapped in PreTrainedTokenizerFast with the Qwen2.5 chat template
that TRL ships (it renders `tools` and `tool_calls`). Each file is loaded as a user would load it,
`datasets.load_dataset("json", data_files=...)`.

    python test/python/trl_checks.py --report out.json dpo=FILE prm=FILE prm-chat=FILE ...

Kinds: dpo (DPOTrainer on a preference file, standard or conversational, tool calls and `tools` included),
sft (SFTTrainer on a prompt-completion file, conversational with `tools`),
prm (the PRM trainer on a stepwise file with a text prompt), prm-chat (the same with the prompt as a message
list, put through TRL's maybe_apply_chat_template first). Prints one line per check and a last line
"TRL checks: N of M passed"; exits 1 when any failed. The report holds each check's figures.
"""

import argparse
import copy
import json
import math
import os
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("WANDB_DISABLED", "true")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
warnings.filterwarnings("ignore")

import datasets  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
import trl  # noqa: E402
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers  # noqa: E402
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM, Qwen2ForTokenClassification  # noqa: E402

datasets.disable_progress_bars()
transformers.logging.set_verbosity_error()
torch.manual_seed(0)

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def texts_of(value):
    """Every string in a JSON value (the tokenizer's training text)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from texts_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from texts_of(v)


def make_tokenizer(files):
    rows = [json.loads(line) for f in files for line in Path(f).read_text(encoding="utf-8").splitlines() if line.strip()]
    corpus = list(texts_of(rows)) + [json.dumps(r) for r in rows]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=800, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    fast.chat_template = (Path(trl.__file__).parent / "chat_templates" / "qwen2_5.jinja").read_text(encoding="utf-8")
    return fast


def tiny_config(tok, **extra):
    return Qwen2Config(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=32768,
        pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
        **extra,
    )


def load(path):
    return datasets.load_dataset("json", data_files=str(path), split="train")


def common_args(out):
    return dict(
        output_dir=out,
        max_steps=1,
        per_device_train_batch_size=2,
        learning_rate=1e-2,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        disable_tqdm=True,
        dataloader_num_workers=0,
        seed=0,
    )


def one_step(trainer):
    """Train one step; the loss must be a number and the weights must move."""
    before = [p.detach().clone() for p in trainer.model.parameters() if p.requires_grad]
    result = trainer.train()
    after = [p.detach() for p in trainer.model.parameters() if p.requires_grad]
    moved = any(not torch.equal(a, b) for a, b in zip(before, after))
    loss = float(result.training_loss)
    if trainer.state.global_step != 1:
        raise AssertionError(f"{trainer.state.global_step} steps were taken, not 1")
    if not math.isfinite(loss):
        raise AssertionError(f"the loss is {loss}")
    if not moved:
        raise AssertionError("no weight changed in the step")
    return {"steps": trainer.state.global_step, "loss": loss}


def check_dpo(path, tok, out):
    from trl import DPOConfig, DPOTrainer

    data = load(path)
    figures = {"rows": len(data), "columns": sorted(data.column_names)}
    first = data[0]
    if "tools" in data.column_names:
        # The template must show the model every tool the row offers and every call chosen makes.
        tools = first["tools"]
        tools = json.loads(tools) if isinstance(tools, str) else tools
        prompt = first["prompt"] if "prompt" in data.column_names else []
        shown = tok.apply_chat_template(prompt + first["chosen"], tools=tools, tokenize=False)
        names = [t["function"]["name"] for t in tools]
        calls = [c["function"]["name"] for m in first["chosen"] for c in (m.get("tool_calls") or [])]
        missing = [n for n in names + calls if n not in shown]
        if missing:
            raise AssertionError(f"the chat template did not show {missing}")
        figures["tools"] = names
        figures["calls"] = calls
    model = Qwen2ForCausalLM(tiny_config(tok))
    reference = copy.deepcopy(model)  # TRL would load the reference by the model's hub id, which a config model lacks
    args = DPOConfig(**common_args(out), max_length=None, beta=0.1)
    trainer = DPOTrainer(model=model, ref_model=reference, args=args, train_dataset=data, processing_class=tok)
    figures["tokenized"] = len(trainer.train_dataset)
    if figures["tokenized"] != figures["rows"]:
        raise AssertionError(f"DPOTrainer kept {figures['tokenized']} of {figures['rows']} rows")
    figures.update(one_step(trainer))
    return figures


def check_sft(path, tok, out):
    from trl import SFTConfig, SFTTrainer

    data = load(path)
    figures = {"rows": len(data), "columns": sorted(data.column_names)}
    model = Qwen2ForCausalLM(tiny_config(tok))
    args = SFTConfig(**common_args(out), max_length=None, packing=False)
    trainer = SFTTrainer(model=model, args=args, train_dataset=data, processing_class=tok)
    figures["tokenized"] = len(trainer.train_dataset)
    if figures["tokenized"] != figures["rows"]:
        raise AssertionError(f"SFTTrainer kept {figures['tokenized']} of {figures['rows']} rows")
    # Only the completion is learned: the prompt's tokens are masked out (-100 labels, or a completion mask).
    columns = trainer.train_dataset.column_names
    if "labels" in columns:
        learned = [[x != -100 for x in row] for row in trainer.train_dataset["labels"]]
    elif "completion_mask" in columns:
        learned = [[bool(x) for x in row] for row in trainer.train_dataset["completion_mask"]]
    else:
        raise AssertionError(f"no labels nor completion mask among {columns}: the prompt would be learned too")
    figures["completion_tokens"] = [sum(row) for row in learned]
    if not all(0 < sum(row) < len(row) for row in learned):
        raise AssertionError(f"learned tokens per row {figures['completion_tokens']} of {[len(r) for r in learned]}")
    figures.update(one_step(trainer))
    return figures


def prm_classes():
    try:
        from trl import PRMConfig, PRMTrainer  # TRL before 1.0
    except ImportError:
        from trl.experimental.prm import PRMConfig, PRMTrainer  # where TRL 1.x keeps it
    return PRMConfig, PRMTrainer


def check_prm(path, tok, out, chat):
    PRMConfig, PRMTrainer = prm_classes()
    data = load(path)
    figures = {"rows": len(data), "columns": sorted(data.column_names), "trainer": f"{PRMTrainer.__module__}.PRMTrainer"}
    prompt_is_chat = isinstance(data[0]["prompt"], list)
    if prompt_is_chat != chat:
        raise AssertionError(f"the prompt is {'a message list' if prompt_is_chat else 'text'}")
    if chat:
        from trl import maybe_apply_chat_template

        data = data.map(maybe_apply_chat_template, fn_kwargs={"processing_class": tok})
        if not isinstance(data[0]["prompt"], str):
            raise AssertionError("maybe_apply_chat_template left the prompt a message list")
    steps = [len(labels) for labels in data["labels"]]
    figures["steps"] = steps
    figures["true"] = sum(sum(1 for x in labels if x) for labels in data["labels"])
    model = Qwen2ForTokenClassification(tiny_config(tok, num_labels=2))
    args = PRMConfig(**common_args(out), max_length=None, max_completion_length=None, step_separator="\n")
    trainer = PRMTrainer(model=model, args=args, train_dataset=data, processing_class=tok)
    # Each step's label lands on one token; every other token is -100.
    labeled = [sum(1 for x in row if x != -100) for row in trainer.train_dataset["labels"]]
    if labeled != steps:
        raise AssertionError(f"labeled tokens per row {labeled}, steps per row {steps}")
    result = one_step(trainer)
    figures.update({"train_steps": result["steps"], "loss": result["loss"]})
    return figures


CHECKS = {
    "dpo": check_dpo,
    "sft": check_sft,
    "prm": lambda path, tok, out: check_prm(path, tok, out, chat=False),
    "prm-chat": lambda path, tok, out: check_prm(path, tok, out, chat=True),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", help="write each check's figures here as JSON")
    parser.add_argument("checks", nargs="+", help="KIND=FILE, KIND one of dpo, sft, prm, prm-chat")
    opts = parser.parse_args()
    checks = [c.split("=", 1) for c in opts.checks]
    for kind, path in checks:
        if kind not in CHECKS:
            parser.error(f"unknown check kind {kind!r} ({', '.join(CHECKS)})")
        if not Path(path).is_file():
            parser.error(f"no file {path}")
    tok = make_tokenizer([p for _, p in checks])
    from trl.chat_template_utils import supports_tool_calling

    if not supports_tool_calling(tok):
        print("FAIL setup: the chat template does not render tool calls")
        return 1
    report = {"versions": {m.__name__: m.__version__ for m in (trl, transformers, datasets, torch)}, "checks": []}
    passed = 0
    for kind, path in checks:
        name = f"{kind} {Path(path).name}"
        with tempfile.TemporaryDirectory() as out:
            try:
                figures = CHECKS[kind](path, tok, out)
                passed += 1
                report["checks"].append({"kind": kind, "file": path, "ok": True, **figures})
                print(f"PASS {name}: {json.dumps(figures)}")
            except Exception as error:  # noqa: BLE001 - every failure is reported by name, then the run fails
                report["checks"].append({"kind": kind, "file": path, "ok": False, "error": f"{type(error).__name__}: {error}"})
                print(f"FAIL {name}: {type(error).__name__}: {error}")
                traceback.print_exc(file=sys.stderr)
    if opts.report:
        Path(opts.report).write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(f"TRL checks: {passed} of {len(checks)} passed (trl {trl.__version__}, transformers {transformers.__version__}, torch {torch.__version__})")
    return 0 if passed == len(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
