#!/usr/bin/env python3
"""make_corpus.py SOURCE_DIR OUT_DIR - the fuzz targets' seed corpora, one folder per target, made from the
shipped configs, the shipped snake files and the string literals of the tests (tests/, plugins/*/tests/) that have
each parser's form. Made at fuzz time rather than committed: the seeds follow the tests as they change. Each seed
is named by its SHA-1, as libFuzzer names what it adds."""
import hashlib
import pathlib
import re
import sys

RAW = re.compile(r'R"\((.*?)\)"', re.S)
QUOTED = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "0": "\0"}


def literals(files):
    """Every string literal of the C++ files, escapes of ordinary literals decoded."""
    for f in files:
        text = f.read_text(errors="replace")
        yield from RAW.findall(text)
        for m in QUOTED.findall(RAW.sub("", text)):
            yield re.sub(r"\\(.)", lambda e: ESCAPES.get(e.group(1), e.group(1)), m)


def main():
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    test_sources = sorted(src.glob("tests/**/*.cpp")) + sorted(src.glob("plugins/*/tests/*.cpp"))
    strings = set(literals(test_sources))
    configs = sorted(src.glob("configs/*.toml"))
    seeds = {name: set() for name in ("experiment_config_fuzz", "overrides_fuzz", "replay_results_fuzz", "fen_fuzz",
                                      "othello_text_fuzz", "snake_text_fuzz", "snake_file_fuzz")}

    seeds["experiment_config_fuzz"] |= {c.read_text() for c in configs}
    seeds["experiment_config_fuzz"] |= {s for s in strings if "algorithm" in s and "=" in s}
    seeds["overrides_fuzz"] |= {s for s in strings if re.fullmatch(r"[a-z_]+(\.[a-z_]+)+=.*", s)}
    fen = re.compile(r"[1-8pnbrqkPNBRQK]{1,8}(/[1-8pnbrqkPNBRQK]{1,8}){7} [wb] .*")
    seeds["fen_fuzz"] |= {s for s in strings if fen.fullmatch(s)}
    for c in configs:
        seeds["fen_fuzz"] |= {m for m in re.findall(r'position = "([^"]*)"', c.read_text()) if fen.fullmatch(m)}
    seeds["othello_text_fuzz"] |= {s for s in strings if re.fullmatch(r"[-XOxo*.]{64} .*", s) or s == "start"}
    # snake_text_fuzz's input is "<dimension> <blocked sub-cubes>\n<snake text>".
    snakes = {s for s in strings if re.fullmatch(r"d=\d+ moves[ \d]*", s)}
    subcubes = {s for s in strings if re.fullmatch(r"[01*]{3,13}(,[01*]{3,13})*", s)}
    seeds["snake_text_fuzz"] |= {f"{s.split()[0][2:]}\n{s}" for s in snakes}
    seeds["snake_text_fuzz"] |= {f"{len(b.split(',')[0])} {b}\nd={len(b.split(',')[0])} moves" for b in subcubes}
    seeds["snake_file_fuzz"] |= {p.read_text() for p in sorted(src.glob("docs/perf/snakes/*.json"))}
    seeds["snake_file_fuzz"] |= {s for s in strings if "gsdk-snake" in s or '"vertices"' in s}
    # The fields of a results file that replay reads, as `gsdk run` writes them (report/results_file.cpp).
    seeds["replay_results_fuzz"] |= {
        '{"game": {"name": "graveler", "params": {"rolls": 231}}, "seed": 1, "engine": "batch", '
        '"result": {"best": {"playout": 12, "score": 177}}}',
        '{"game": {"name": "snake", "params": {"dimension": 8, "symmetry_breaking": true}}, "seed": 5, '
        '"engine": "generic", "start_state": "d=8 moves 0 1", "result": {"best": {"playout": 0, "score": 40}}}'}

    for name, texts in seeds.items():
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        for text in texts:
            data = text.encode()
            (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"{name}: {len(texts)} seeds")


if __name__ == "__main__":
    main()
