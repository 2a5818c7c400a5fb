"""pandas / pyarrow (and `datasets`, as LeRobot loads its frames) read Arbiter's LeRobot export back.

    python test/python/lerobot_checks.py DATASET_FOLDER EXPECT.json

EXPECT names what the episodes should be: {"episodes": [{"length": 24, "success": false,
"first_failure": 0.5, "videos": {"observation.images.top": "<sha256>", ...}}, ...]}.

Checks (LeRobot itself is not installable here: no wheel of it in the local package folders):
  info      meta/info.json: codebase_version v2.1, totals that match the files, splits "0:N", the
            data_path / video_path templates, every camera a feature of dtype "video" with its shape.
  episodes  meta/episodes.jsonl and meta/tasks.jsonl: indexes 0..N-1, lengths, success, first_failure.
  parquet   each episode's Parquet file by pandas (pyarrow engine): the frame columns with LeRobot's
            dtypes, one row per frame, a global `index` that runs on across episodes, next.success on the
            last frame of a successful episode only, meta/episodes_stats.jsonl's min / max / mean / std /
            count of each column as numpy computes them; and all of data/ by `datasets.load_dataset("parquet")`.
  videos    every camera's mp4 at the path video_path gives, its sha256 as expected (byte for byte).
Prints one line per check and a last line "lerobot checks: N of M passed"; exits 1 when any failed.
"""

import hashlib
import json
import os
import sys
import traceback

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import pandas as pd  # noqa: E402


def fill(template, **values):
    return template.format(**values)


def main(root, expect_path):
    expect = json.load(open(expect_path))["episodes"]
    info = json.load(open(os.path.join(root, "meta", "info.json")))
    episodes = [json.loads(l) for l in open(os.path.join(root, "meta", "episodes.jsonl")) if l.strip()]
    tasks = [json.loads(l) for l in open(os.path.join(root, "meta", "tasks.jsonl")) if l.strip()]
    episode_stats = {e["episode_index"]: e["stats"] for e in (json.loads(l) for l in open(os.path.join(root, "meta", "episodes_stats.jsonl")) if l.strip())}
    cameras = [k for k, f in info["features"].items() if f["dtype"] == "video"]
    results = []

    def check(name, fn):
        try:
            fn()
            results.append((name, True, ""))
        except Exception as error:  # noqa: BLE001
            results.append((name, False, f"{error}\n{traceback.format_exc(limit=2)}"))

    def info_check():
        assert info["codebase_version"] == "v2.1", info["codebase_version"]
        assert info["total_episodes"] == len(expect) == len(episodes)
        assert info["total_frames"] == sum(e["length"] for e in expect)
        assert info["total_tasks"] == len(tasks)
        assert info["total_videos"] == len(expect) * len(cameras)
        assert info["splits"] == {"train": f"0:{len(expect)}"}
        assert sorted(cameras) == sorted(expect[0]["videos"].keys()), cameras
        for key in cameras:
            assert info["features"][key]["shape"][2] == 3 and info["features"][key]["shape"][0] > 0

    def episodes_check():
        assert [e["episode_index"] for e in episodes] == list(range(len(expect)))
        for e, want in zip(episodes, expect):
            assert e["length"] == want["length"], (e, want)
            assert e["success"] == want["success"], (e, want)
            assert e.get("first_failure", "absent") == want.get("first_failure", "absent"), (e, want)
            assert all(t in [x["task"] for x in tasks] for t in e["tasks"])

    def parquet_check():
        start = 0
        for e, want in zip(episodes, expect):
            i = e["episode_index"]
            path = os.path.join(root, fill(info["data_path"], episode_chunk=i // info["chunks_size"], episode_index=i))
            frame = pd.read_parquet(path, engine="pyarrow")
            assert list(frame.columns) == ["timestamp", "frame_index", "episode_index", "index", "task_index", "next.success"], list(frame.columns)
            assert str(frame["timestamp"].dtype) == "float32" and str(frame["frame_index"].dtype) == "int64"
            assert len(frame) == want["length"]
            assert frame["frame_index"].tolist() == list(range(want["length"]))
            assert set(frame["episode_index"].tolist()) == {i}
            assert frame["index"].tolist() == list(range(start, start + want["length"]))
            assert frame["next.success"].tolist() == [bool(want["success"]) and k == want["length"] - 1 for k in range(want["length"])]
            stats = episode_stats[i]
            for column in frame.columns:
                values = frame[column].to_numpy().astype("float64")
                got = stats[column]
                assert got["count"] == [len(values)], (column, got)
                for name, value in (("min", values.min()), ("max", values.max()), ("mean", values.mean()), ("std", values.std())):
                    assert abs(got[name][0] - value) < 1e-5, (i, column, name, got[name], value)
            start += want["length"]
        import datasets

        data = datasets.load_dataset("parquet", data_dir=os.path.join(root, "data"), split="train")
        assert len(data) == info["total_frames"], len(data)

    def videos_check():
        for e, want in zip(episodes, expect):
            i = e["episode_index"]
            for key, sha in want["videos"].items():
                path = os.path.join(root, fill(info["video_path"], episode_chunk=i // info["chunks_size"], video_key=key, episode_index=i))
                assert hashlib.sha256(open(path, "rb").read()).hexdigest() == sha, path

    check("info", info_check)
    check("episodes", episodes_check)
    check("parquet", parquet_check)
    check("videos", videos_check)
    for name, ok, said in results:
        print(f"{'ok  ' if ok else 'FAIL'} {name}{'' if ok else ': ' + said}")
    passed = sum(1 for _, ok, _ in results if ok)
    print(f"lerobot checks: {passed} of {len(results)} passed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
