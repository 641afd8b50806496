#!/usr/bin/env python3
"""Generate testdata/pyvectors.jsonl: differential vectors for agenttest.

Every expectation is computed by real Python (str(), ==, hash sets, sorted(),
round()) on the values json.loads gives back, following the metric
definitions of the spec (shared/spec/agent-metrics.md, sections 1-4)
literally. Nothing here is ragas's code; it is the spec written as Python, so
that the Go port is checked against Python's own semantics on thousands of
tricky samples rather than against itself. TestPythonVectors reads the file.

    python3 gen_pyvectors.py [-n 1800] [-big 8] [-sims 300] [-seed 20261122] [-o pyvectors.jsonl]

The output is deterministic for a seed; keep it under 2 MB. Each line is one
JSON object, with "kind":
  "sample": {"sample": <ragas MultiTurnSample>, "strs": [...], "pred": [...],
             "ref": [...], "scores": [...], "warnings": [...]}
     strs holds str(args) for each distinct call (str() of a dict is repr()
     of its keys and values, and str(v) is repr(v) for all but a str); pred
     and ref index strs for each predicted and reference call; scores are in
     the order of SCORES below.
  "sim":    {"a": reference, "b": response, "scores": [...]} in the order
     of SIMILARITIES below.
Floats are written by json.dumps (repr, shortest round-trip). Strings are
written all-ASCII for some samples and as UTF-8 for the others, lone
surrogates always as \\ud800 escapes so that they survive.

Two consequences of computing on json.loads's values, as ragas would on a
dataset file: a NaN argument equals a NaN argument in ToolCallF1 (json
decodes every NaN to one float object, and sets compare by identity before
==), and two escaped lone surrogates that form a pair are one code point.
repr() depends on the Unicode tables of the Python that runs this (3.11:
Unicode 14); the characters drawn here are classified alike in Unicode 14
and 15, which Go's tables follow.
"""

import argparse
import json
import random
import re
import struct
import sys

# Characters chosen to stress Python's repr(): quotes, escapes, controls,
# printable and non-printable non-ASCII, private use, lone surrogates. All
# have the same category in Unicode 14 and 15, so the vectors hold whatever
# Unicode version Python or Go ship.
TRICKY_CHARS = [
    "'", '"', "\\", "\n", "\r", "\t", "\x00", "\x01", "\x1b", "\x1f", "\x7f",
    "\x80", "\x9f", "\xa0", "\xad", "é", "ß", "ñ", "中", "文", "я", "é",
    "\u0301", "\u0378", "\u200b", "\u200d", "\u2028", "\u2029", "\u3000",
    "\ue000", "\uf8ff", "\ufeff", "\ufffd", "\uffff", "\U0001f600",
    "\U0001f9d1", "\U0001d11e", "\U000e0001", "\U000f0000", "\U0010ffff",
    "\ud800", "\udbff", "\udc00", "\udfff", " ", "~", "{", "}", "[", "]",
    ":", ",",
]
PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-."

TRICKY_STRINGS = [
    "", "a", "It's", 'say "hi"', "both ' and \"", "back\\slash", "new\nline",
    "tab\there", "cr\r", "nul\x00", "\x7f", "café", "中文", "😀", "e\u0301",
    "\u00ad", "\u200b", "\u2028", "\ue000", "\U0010ffff", "\ud800", "\udfff",
    "\ud83d\ude00",  # two lone surrogates: json.loads joins them into 😀
    "\udc00\ud800", "True", "False", "None", "1", "1.0", "[1, 2]",
    "{'a': 1}", "'", '"', "''", '""', "\\'", "\\n", " ", "Paris", "paris",
    "New York", "2024-01-01", "\x1b[31mred\x1b[0m", "\U0001f9d1\u200d\U0001f4bb",
]

FLOATS = [
    1e-5, 1.5e-7, 1e-4, 0.0001, 0.00012, 1e16, 1e22, 1e23, 0.1 + 0.2, 0.1, 0.3,
    -0.0, 0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
    -1.7976931348623157e308, 75.0, 1e15, 1e15 + 0.3, 999999999999999.9,
    9999999999999998.0, 123456789012345678.0, 0.5, 1 / 3, 2.0**53, 2.0**53 + 2,
    2.0**63, 2.0**64, 1e100, 1.0, -1.0, 100.0, 3.14, -2.5, 1e-7, 12345.678,
    float("nan"), float("inf"), float("-inf"),
]

INTS = [0, 1, -1, 2, 10, 75, 100, 10**15, 10**16, 10**22, 10**30, -(10**30),
        2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63)]

NAMES = ["search", "get_weather", "book_table", "filter", "calc", "send_email",
         "Search", "café_lookup", "中文工具", "a", "b", "search2"]
KEYS = ["query", "city", "n", "units", "a", "b", "A", "Z", "é", "key with space",
        "'q'", '"dq"', "10", "2", "", "x\ny", "中", "\ud800k", "\U0001f600", "_"]


def rand_float(r):
    c = r.random()
    if c < 0.45:
        return r.choice(FLOATS)
    if c < 0.65:
        # Any finite double, from its bits.
        while True:
            f = struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
            if f == f and f not in (float("inf"), float("-inf")):
                return f
    if c < 0.85:
        # Decimal-looking numbers across magnitudes.
        return round(r.uniform(-1000, 1000), r.randint(0, 6)) * 10.0 ** r.randint(-8, 20)
    return float(r.randint(-10**6, 10**6)) * 10.0 ** r.randint(-6, 18)


def rand_int(r):
    if r.random() < 0.5:
        return r.choice(INTS)
    return r.randint(-10**r.randint(1, 25), 10**r.randint(1, 25))


def rand_string(r):
    c = r.random()
    if c < 0.35:
        return r.choice(TRICKY_STRINGS)
    n = r.randint(0, 8)
    if c < 0.6:
        return "".join(r.choice(PLAIN) for _ in range(n))
    return "".join(r.choice(TRICKY_CHARS) if r.random() < 0.4 else r.choice(PLAIN) for _ in range(n))


def rand_scalar(r):
    c = r.random()
    if c < 0.3:
        return rand_string(r)
    if c < 0.55:
        return rand_float(r)
    if c < 0.8:
        return rand_int(r)
    if c < 0.92:
        return r.choice([True, False])
    return None


def rand_value(r, depth=0):
    c = r.random()
    if depth < 3 and c < 0.12:
        return [rand_value(r, depth + 1) for _ in range(r.randint(0, 4))]
    if depth < 3 and c < 0.24:
        return rand_object(r, depth + 1, r.randint(0, 4))
    return rand_scalar(r)


def rand_key(r):
    if r.random() < 0.8:
        return r.choice(KEYS)
    return rand_string(r)


def rand_object(r, depth, n):
    d = {}
    for _ in range(n):
        d[rand_key(r)] = rand_value(r, depth)
    return d


def rand_args(r):
    n = r.choice([0, 1, 1, 1, 2, 2, 2, 3, 3, 5])
    return rand_object(r, 0, n)


def near(r, v):
    """A value that looks like v: equal under ==, or under str(), or neither."""
    if isinstance(v, bool):
        return r.choice([int(v), float(v), str(v), not v])
    if isinstance(v, int):
        return r.choice([float(v) if abs(v) < 2**1000 else v + 1, v == 1, str(v), v + 1, -v])
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return r.choice([v, str(v), 0.0])
        opts = [v, -v, v * (1 + 2**-52), str(v)]
        if v.is_integer():
            opts.append(int(v))
        return r.choice(opts)
    if isinstance(v, str):
        if not v:
            return r.choice([" ", "None", "''"])
        i = r.randrange(len(v))
        return r.choice([
            v.upper(), v.lower(), v[:i] + v[i + 1:], v[:i] + r.choice(TRICKY_CHARS) + v[i:],
            v[::-1], v + v, repr(v),
        ])
    if isinstance(v, list):
        if not v:
            return r.choice([{}, None, [None]])
        return r.choice([v[::-1], v[:-1], v + [v[0]], [near(r, x) for x in v]])
    if isinstance(v, dict):
        if not v:
            return r.choice([[], None, {"": None}])
        items = list(v.items())
        return r.choice([
            dict(items[::-1]),  # same under ==, different under str()
            {k: near(r, x) for k, x in items},
            dict(items[:-1]),
            dict(items + [(rand_key(r), rand_value(r, 2))]),
        ])
    return r.choice([0, False, "None", [], {}])


def mutate_call(r, call):
    name, args = call["name"], dict(call["args"])
    c = r.random()
    keys = list(args)
    if c < 0.35 and keys:
        k = r.choice(keys)
        args[k] = near(r, args[k])
    elif c < 0.45 and keys:
        del args[r.choice(keys)]
    elif c < 0.55:
        args[rand_key(r)] = rand_value(r, 1)
    elif c < 0.65:
        args = dict(reversed(list(args.items())))
    elif c < 0.72:
        name = r.choice(NAMES)
    else:
        return {"name": name, "args": args}
    return {"name": name, "args": args}


def predicted_from(r, ref):
    pred = [dict(c) for c in ref]
    for _ in range(r.choice([0, 0, 1, 1, 2, 3])):
        op = r.random()
        if op < 0.3 and pred:
            i = r.randrange(len(pred))
            pred[i] = mutate_call(r, pred[i])
        elif op < 0.45 and len(pred) > 1:
            i, j = r.sample(range(len(pred)), 2)
            pred[i], pred[j] = pred[j], pred[i]
        elif op < 0.55 and pred:
            i = r.randrange(len(pred))
            pred.insert(r.randrange(len(pred) + 1), dict(pred[i]))  # retry
        elif op < 0.65 and pred:
            del pred[r.randrange(len(pred))]
        elif op < 0.75:
            pred.insert(r.randrange(len(pred) + 1), rand_call(r))
        elif op < 0.85:
            r.shuffle(pred)
        else:
            # Same name, different arguments, in some order.
            if pred:
                c = pred[r.randrange(len(pred))]
                pred.append({"name": c["name"], "args": {k: near(r, v) for k, v in c["args"].items()}})
    return pred


DUP = "__dup__"


def rand_call(r):
    return {"name": r.choice(NAMES), "args": rand_args(r)}


def rand_sample(r):
    c = r.random()
    if c < 0.04:
        ref = []
    else:
        nref = r.choice([1, 1, 1, 1, 2, 2, 2, 3, 3, 5])
        ref = [rand_call(r) for _ in range(nref)]
        if r.random() < 0.2 and ref:
            # Same-name calls, which the any-order sort must order by args.
            ref.append({"name": ref[0]["name"], "args": rand_args(r)})
        if r.random() < 0.08 and ref:
            ref.append(dict(ref[-1]))  # a duplicate reference call
        if r.random() < 0.03:
            ref.insert(0, {"name": "search", "args": {"query": 1, "n": 2, DUP: "last"}})
    pred = [] if r.random() < 0.04 else predicted_from(r, ref)
    msgs = [{"type": "human", "content": r.choice(["hi", "", "Find it", "It's \"x\"", rand_string(r)])}]
    i = 0
    while i < len(pred):
        k = r.randint(1, min(3, len(pred) - i))
        msgs.append({"type": "ai", "content": r.choice(["", "", "ok"]), "tool_calls": pred[i:i + k]})
        for _ in range(r.randint(1, k)):
            msgs.append({"type": "tool", "content": r.choice(["", "done"])})
        i += k
    if r.random() < 0.1:
        # ragas accepts a tool message after an ai message with an empty list.
        msgs.append({"type": "ai", "content": "", "tool_calls": []})
        msgs.append({"type": "tool", "content": "nothing"})
    msgs.append({"type": "ai", "content": "Done"})
    return {"user_input": msgs, "reference_tool_calls": ref}


# The spec, as Python.

def levenshtein(a, b):
    if len(a) < len(b):
        a, b = b, a
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, row[0] = row[0], i
        for j in range(1, len(b) + 1):
            cur = row[j]
            row[j] = min(cur + 1, row[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev = cur
    return row[len(b)]


def lev_norm_dist(a, b):
    m = max(len(a), len(b))
    return levenshtein(a, b) / m if m else 0.0


def hamming_norm_dist(a, b):
    m = max(len(a), len(b))
    if not m:
        return 0.0
    equal = sum(1 for x, y in zip(a, b) if x == y)
    return (m - equal) / m


def jaro(p, t):
    lp, lt = len(p), len(t)
    if not lp and not lt:
        return 1.0
    if not lp or not lt:
        return 0.0
    if lp == 1 and lt == 1:
        return float(p[0] == t[0])
    bound = max(lp, lt) // 2 - 1
    if lt > lp + bound:
        t = t[:lp + bound]
    elif lp > lt + bound:
        p = p[:lt + bound]
    pf = [False] * len(p)
    tf = [False] * len(t)
    m = 0
    for j, ch in enumerate(t):
        for i in range(max(0, j - bound), min(len(p), j + bound + 1)):
            if not pf[i] and p[i] == ch:
                pf[i] = tf[j] = True
                m += 1
                break
    if not m:
        return 0.0
    pm = [p[i] for i in range(len(p)) if pf[i]]
    tm = [t[j] for j in range(len(t)) if tf[j]]
    trans = sum(1 for x, y in zip(pm, tm) if x != y) // 2
    sim = 0.0
    sim += m / lp
    sim += m / lt
    sim += (m - trans) / m
    return sim / 3.0


def jaro_winkler(p, t):
    prefix = 0
    for x, y in zip(p[:4], t[:4]):
        if x != y:
            break
        prefix += 1
    sim = jaro(p, t)
    if sim > 0.7:
        sim += prefix * 0.1 * (1.0 - sim)
        sim = min(sim, 1.0)
    return sim


SIMILARITIES = {
    "exact": lambda ref, resp: float(ref == resp),
    "levenshtein": lambda ref, resp: 1 - lev_norm_dist(ref, resp),
    "hamming": lambda ref, resp: 1 - hamming_norm_dist(ref, resp),
    "jaro": lambda ref, resp: 1 - (1 - jaro(ref, resp)),
    "jaro_winkler": lambda ref, resp: 1 - (1 - jaro_winkler(ref, resp)),
}


def arg_score(pred, ref, sim):
    if not ref and not pred:
        return 1.0
    if not ref:
        return 0.0
    score = 0.0
    for k in ref:
        if k in pred:
            score += sim(str(ref[k]), str(pred[k]))
    return score / len(ref)


def sort_key(call):
    key = [call["name"]]
    for k in sorted(call["args"]):
        key += [k, str(call["args"][k])]
    return tuple(key)


def tool_call_accuracy(pred, ref, strict=True, sim=SIMILARITIES["exact"]):
    warnings = []
    if not pred and not ref:
        return 1.0, warnings
    if not pred:
        return 0.0, ["No tool calls found in the user input"]
    if not ref:
        return 0.0, ["Reference tool calls are empty but predictions exist"]
    if not strict:
        pred = sorted(pred, key=sort_key)
        ref = sorted(ref, key=sort_key)
    n = min(len(pred), len(ref))
    if len(pred) != len(ref):
        warnings.append(f"Length mismatch: predicted tool calls ({len(pred)}) vs reference tool calls "
                        f"({len(ref)}). Only the first {n} tool calls will be compared.")
    pn, rn = [c["name"] for c in pred], [c["name"] for c in ref]
    aligned = pn == rn if strict else sorted(pn) == sorted(rn)
    score = 0.0
    for p, rc in zip(pred, ref):
        if p["name"] == rc["name"]:
            score += arg_score(p["args"], rc["args"], sim)
    score /= len(ref)
    if n < len(ref):
        score *= n / len(ref)
    return (score if aligned else 0.0), warnings


def hashable(v):
    if isinstance(v, dict):
        return frozenset((k, hashable(x)) for k, x in v.items())
    if isinstance(v, list):
        return tuple(hashable(x) for x in v)
    return v


def tool_call_f1(pred, ref):
    expected = {(c["name"], hashable(c["args"])) for c in ref}
    actual = {(c["name"], hashable(c["args"])) for c in pred}
    tp = len(actual & expected)
    fp = len(actual - expected)
    fn = len(expected - actual)
    precision = tp / (tp + fp) if tp + fp > 0 else 0.0
    recall = tp / (tp + fn) if tp + fn > 0 else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return round(f1, 4)


def predicted_calls(sample):
    return [c for m in sample["user_input"] if m["type"] == "ai" for c in (m.get("tool_calls") or [])]


SCORES = [
    "tool_call_accuracy", "tool_call_accuracy_any_order", "tool_call_f1",
    "tool_call_accuracy_levenshtein", "tool_call_accuracy_hamming",
    "tool_call_accuracy_jaro", "tool_call_accuracy_jaro_winkler",
    "tool_call_accuracy_any_order_levenshtein",
]


def call_strs(c):
    # str() of the whole arguments dict holds repr() of every key and value;
    # str(v) of a top-level value is repr(v) for anything but a str, which
    # the Go test asserts on its side, so per-argument texts would only
    # repeat these.
    assert all(str(v) == repr(v) for v in c["args"].values() if not isinstance(v, str))
    return str(c["args"])


def dumps(x, ascii):
    """JSON text of x: all-ASCII, or UTF-8 with only lone surrogates escaped."""
    if ascii:
        return json.dumps(x, ensure_ascii=True, separators=(",", ":"))
    return LONE_SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()),
                              json.dumps(x, ensure_ascii=False, separators=(",", ":")))


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def big_sample(r):
    """Many calls of few names, duplicates and retries: the sizes where a
    quadratic set or sort would show, and where sorting must be stable."""
    names = NAMES[:3]
    base = [{"name": r.choice(names), "args": rand_object(r, 2, r.randint(0, 2))} for _ in range(40)]
    ref = [dict(r.choice(base)) for _ in range(r.randint(80, 150))]
    pred = [dict(c) for c in ref]
    same_names = r.random() < 0.6  # then any-order accuracy pairs them all
    for _ in range(r.randint(5, 40)):
        i = r.randrange(len(pred))
        op = r.random()
        if same_names or op < 0.4:
            c = pred[i]
            pred[i] = {"name": c["name"], "args": {k: near(r, v) if r.random() < 0.5 else v
                                                   for k, v in c["args"].items()}}
        elif op < 0.7:
            pred.insert(i, dict(r.choice(base)))
        else:
            del pred[i]
    if same_names or r.random() < 0.5:
        r.shuffle(pred)
    msgs = [{"type": "human", "content": "many"}, {"type": "ai", "content": "", "tool_calls": pred},
            {"type": "tool", "content": "done"}]
    return {"user_input": msgs, "reference_tool_calls": ref}


def sample_record(r, big=False):
    text = dumps(big_sample(r) if big else rand_sample(r), r.random() < 0.3)
    # A duplicate key: Python keeps the first position and the last value.
    text = text.replace('"' + DUP + '"', '"query"')
    s = json.loads(text)  # what ragas would be given; NaN is json's one NaN object
    pred, ref = predicted_calls(s), s["reference_tool_calls"]
    scores = {}
    acc, warnings = tool_call_accuracy(pred, ref)
    scores["tool_call_accuracy"] = acc
    scores["tool_call_accuracy_any_order"] = tool_call_accuracy(pred, ref, strict=False)[0]
    scores["tool_call_f1"] = tool_call_f1(pred, ref)
    for name in ("levenshtein", "hamming", "jaro", "jaro_winkler"):
        scores["tool_call_accuracy_" + name] = tool_call_accuracy(pred, ref, sim=SIMILARITIES[name])[0]
    scores["tool_call_accuracy_any_order_levenshtein"] = \
        tool_call_accuracy(pred, ref, strict=False, sim=SIMILARITIES["levenshtein"])[0]
    strs, index = [], {}

    def ref_of(c):
        k = json.dumps(c, ensure_ascii=True)
        if k not in index:
            index[k] = len(strs)
            strs.append(call_strs(c))
        return index[k]

    rec = {"kind": "sample", "pred": [ref_of(c) for c in pred], "ref": [ref_of(c) for c in ref],
           "strs": strs, "scores": [scores[k] for k in SCORES], "warnings": warnings}
    # The sample's own text is spliced in so that what Go parses is exactly
    # what the expectations were computed from.
    return '{"sample":' + text + "," + dumps(rec, False)[1:]


def rand_text(r, n):
    alphabet = r.choice([PLAIN[:6], PLAIN, "ab", "".join(TRICKY_CHARS), PLAIN[:26] + "éü中😀\ud800"])
    return "".join(r.choice(alphabet) for _ in range(n))


def edit(r, s):
    s = list(s)
    for _ in range(r.randint(0, 4)):
        op = r.random()
        i = r.randint(0, len(s))
        if op < 0.3 and s:
            del s[min(i, len(s) - 1)]
        elif op < 0.6:
            s.insert(i, r.choice(PLAIN + "é😀"))
        elif op < 0.8 and len(s) > 1:
            j = r.randrange(len(s) - 1)
            s[j], s[j + 1] = s[j + 1], s[j]
        elif s:
            s[min(i, len(s) - 1)] = r.choice(PLAIN)
    return "".join(s)


def sim_record(r):
    n = r.choice([0, 1, 2, 3, 5, 8, 13, 30, 63, 64, 65, 100, 200])
    a = rand_text(r, n)
    b = edit(r, a) if r.random() < 0.7 else rand_text(r, r.choice([0, 1, 4, 64, 65, 130]))
    if r.random() < 0.5:
        a, b = b, a
    x = json.loads(dumps({"a": a, "b": b}, True))
    scores = [f(x["a"], x["b"]) for f in SIMILARITIES.values()]
    return dumps({"kind": "sim", "a": x["a"], "b": x["b"], "scores": scores}, False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1800)
    ap.add_argument("-big", type=int, default=8)
    ap.add_argument("-sims", type=int, default=300)
    ap.add_argument("-seed", type=int, default=20261122)
    ap.add_argument("-o", default="pyvectors.jsonl")
    a = ap.parse_args()
    r = random.Random(a.seed)
    lines = [sample_record(r) for _ in range(a.n)] + [sample_record(r, big=True) for _ in range(a.big)] + \
        [sim_record(r) for _ in range(a.sims)]
    with open(a.o, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line + "\n")
    print(f"{a.o}: {len(lines)} lines, Python {sys.version.split()[0]}", file=sys.stderr)


if __name__ == "__main__":
    main()
