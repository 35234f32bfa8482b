#!/usr/bin/env python3
"""Counts the table cases of upstream Go test files, per test function.

The manifest (conformance/runner/src/main/resources/conformance/upstream.json) names, per
upstream source, the repository and the pinned tag, and per plugin the test files. This script
reads those files from a checkout of the source at its tag and writes, per file and test function,
the names of the table cases into the manifest; the conformance runner prints its coverage
against these names.

  count-cases.py count --source kubernetes --root ~/src/kubernetes        # recount, rewrite manifest
  count-cases.py check --source koordinator --root ~/src/koordinator      # recount, compare, exit 1 on a difference
  count-cases.py count --source kubernetes --file pkg/x/y_test.go=/tmp/y_test.go   # one file read elsewhere
  count-cases.py show FILE.go                                             # print one file's counts

A "table case" is an element of a composite literal whose type is a slice or string-keyed map of
structs (anonymous, or a struct type the file declares), written in a Test function (or in the testX
that a TestX only calls, counted as TestX) and not inside another such table. Its name is the string
literal of its name field (name, Name, test, desc, description, testName, caseName, title, msg, or the map
key); an element without one is "case_<index>".
Only the Go tokens are read (comments and strings are skipped correctly); nothing is executed.
"""
import argparse
import json
import os
import re
import subprocess
import sys

MANIFEST = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "..", "runner", "src", "main", "resources", "conformance", "upstream.json")

NAME_FIELDS = ("name", "Name", "test", "desc", "description", "testName", "caseName", "title", "msg", "tcName")

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<rune>'(?:\\.|[^'\\\n])+')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>[0-9][0-9a-zA-Z_.]*)
  | (?P<op>:=|\.\.\.|&&|\|\||<-|[-+*/%&|^<>=!]=?|[{}()\[\],;:.~])
""", re.VERBOSE | re.DOTALL)


def tokens(src):
    out = []
    pos = 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            raise ValueError("cannot read Go source at offset %d: %r" % (pos, src[pos:pos + 40]))
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "comment"):
            continue
        text = m.group(kind)
        if kind == "raw":
            kind = "str"
        out.append((kind, text))
    return out


def close(toks, i):
    """Index of the bracket closing the one at i."""
    pairs = {"{": "}", "(": ")", "[": "]"}
    opening = toks[i][1]
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j][1] if toks[j][0] == "op" else None
        if t == opening:
            depth += 1
        elif t == pairs[opening]:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced %s" % opening)


def struct_types(toks):
    """Names of the struct types the file declares (type X struct {...})."""
    names = set()
    for i in range(len(toks) - 2):
        if toks[i] == ("ident", "type") and toks[i + 1][0] == "ident" and toks[i + 2] == ("ident", "struct"):
            names.add(toks[i + 1][1])
    return names


def string_value(toks, i):
    """The value of a string literal or a + concatenation of them starting at i, or None."""
    parts = []
    while i < len(toks) and toks[i][0] == "str":
        parts.append(unquote(toks[i][1]))
        if i + 1 < len(toks) and toks[i + 1] == ("op", "+"):
            i += 2
        else:
            break
    else:
        return None
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is not None and nxt[1] not in (",", "}", ":"):
        return None  # an expression built from a string, not a literal name
    return "".join(parts)


def unquote(s):
    if s.startswith("`"):
        return s[1:-1]
    return json.loads(s) if "\\x" not in s else s[1:-1]


def table_start(toks, i, structs):
    """If a table literal's type starts at i, (is_map, index of its opening brace); else None."""
    j = i
    is_map = False
    if toks[j] == ("op", "[") and j + 1 < len(toks) and toks[j + 1] == ("op", "]"):
        j += 2
    elif toks[j] == ("ident", "map") and toks[j + 1] == ("op", "[") and toks[j + 2] == ("ident", "string") \
            and toks[j + 3] == ("op", "]"):
        is_map = True
        j += 4
    else:
        return None
    if toks[j] == ("op", "*"):
        j += 1
    if toks[j] == ("ident", "struct") and toks[j + 1] == ("op", "{"):
        j = close(toks, j + 1) + 1
    elif toks[j][0] == "ident" and toks[j][1] in structs:
        j += 1
    else:
        return None
    if j < len(toks) and toks[j] == ("op", "{"):
        return is_map, j
    return None


def elements(toks, start, end):
    """(first, last) token indexes of each element between the braces at start and end."""
    out = []
    i = start + 1
    while i < end:
        first = i
        while i < end and toks[i] != ("op", ","):
            if toks[i][0] == "op" and toks[i][1] in "{([":
                i = close(toks, i)
            i += 1
        if i > first:
            out.append((first, i - 1))
        i += 1
    return out


def case_name(toks, first, last, is_map, index):
    if is_map:
        v = string_value(toks, first)
        return v if v is not None else "case_%d" % index
    if toks[first] == ("op", "&"):
        first += 1
    while first <= last and toks[first] != ("op", "{"):
        first += 1  # a typed element (T{...})
    if first > last:
        return "case_%d" % index
    body_end = close(toks, first)
    for a, _ in elements(toks, first, body_end):
        if toks[a][0] == "ident" and toks[a][1] in NAME_FIELDS and toks[a + 1] == ("op", ":"):
            v = string_value(toks, a + 2)
            if v is not None:
                return v
    return "case_%d" % index


def counted_as(func, tests):
    """The test a function's tables count for: a Test function itself, or the body testX of a TestX
    that only hands its T to it (kubernetes' ktesting.Init pattern); else None."""
    if func.startswith("Test"):
        return func
    if func.startswith("test") and func[4:5].isupper() and "T" + func[1:] in tests:
        return "T" + func[1:]
    return None


def count_source(src):
    """{test function: [case names]} of the Go source src; functions without tables are left out."""
    toks = tokens(src)
    structs = struct_types(toks)
    result = {}
    tests = {toks[i + 1][1] for i in range(len(toks) - 1)
             if toks[i] == ("ident", "func") and toks[i + 1][0] == "ident" and toks[i + 1][1].startswith("Test")}
    i = 0
    while i < len(toks):
        if toks[i] == ("ident", "func") and i + 1 < len(toks) and toks[i + 1][0] == "ident" \
                and counted_as(toks[i + 1][1], tests) and toks[i + 2] == ("op", "("):
            name = counted_as(toks[i + 1][1], tests)
            j = close(toks, i + 2) + 1
            while toks[j] != ("op", "{"):
                j += 1
            body_end = close(toks, j)
            cases = []
            k = j + 1
            while k < body_end:
                found = table_start(toks, k, structs)
                if found is None:
                    k += 1
                    continue
                is_map, brace = found
                lit_end = close(toks, brace)
                for n, (a, b) in enumerate(elements(toks, brace, lit_end)):
                    cases.append(case_name(toks, a, b, is_map, n))
                k = lit_end + 1
            if cases:
                result.setdefault(name, []).extend(cases)
            i = body_end + 1
        else:
            i += 1
    return result


def git_commit(root):
    try:
        return subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def recount(manifest, source, root, files):
    """The manifest's files of source, recounted: {path: {test: [names]}} for the files found."""
    out = {}
    for plugin in manifest["plugins"].values():
        if plugin["source"] != source:
            continue
        for path in plugin["files"]:
            local = files.get(path) or (os.path.join(root, path) if root else None)
            if local is None:
                continue
            if not os.path.isfile(local):
                raise SystemExit("%s: no file %s (is the checkout at the tag %s?)"
                                 % (path, local, manifest["sources"][source]["tag"]))
            with open(local, encoding="utf-8") as f:
                out[path] = count_source(f.read())
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for cmd in ("count", "check"):
        s = sub.add_parser(cmd)
        s.add_argument("--source", required=True, help="a source of the manifest: kubernetes, koordinator")
        s.add_argument("--root", help="a checkout of the source at the manifest's tag")
        s.add_argument("--file", action="append", default=[], metavar="PATH=LOCAL",
                       help="read the upstream file PATH from LOCAL (repeatable)")
        s.add_argument("--read", help="with --file: how the files were read, recorded in the manifest")
        s.add_argument("--manifest", default=MANIFEST)
    show = sub.add_parser("show")
    show.add_argument("go_file")
    a = p.parse_args()

    if a.cmd == "show":
        with open(a.go_file, encoding="utf-8") as f:
            counted = count_source(f.read())
        for test, names in counted.items():
            print("%-60s %4d" % (test, len(names)))
        print("%-60s %4d" % ("total", sum(len(n) for n in counted.values())))
        return 0

    with open(a.manifest, encoding="utf-8") as f:
        manifest = json.load(f)
    if a.source not in manifest["sources"]:
        raise SystemExit("--source %s: the manifest has %s" % (a.source, sorted(manifest["sources"])))
    files = {}
    for spec in a.file:
        if "=" not in spec:
            raise SystemExit("--file %s: expected PATH=LOCAL" % spec)
        path, local = spec.split("=", 1)
        files[path] = local
    if not a.root and not files:
        raise SystemExit("give --root (a checkout) or --file PATH=LOCAL")
    counted = recount(manifest, a.source, a.root, files)

    differences = []
    for plugin_name, plugin in manifest["plugins"].items():
        if plugin["source"] != a.source:
            continue
        for path, entry in plugin["files"].items():
            if path not in counted:
                continue
            if a.cmd == "check":
                if entry.get("tests") != counted[path]:
                    differences.append("%s %s: manifest %s, counted %s" % (
                        plugin_name, path, total(entry.get("tests")), total(counted[path])))
            else:
                entry["tests"] = counted[path]
                entry["read"] = a.read if path in files and a.read else (
                    "checkout at %s" % (git_commit(a.root) or manifest["sources"][a.source]["tag"]))
    if a.cmd == "check":
        for d in differences:
            print(d)
        print("%d files recounted, %d differ" % (len(counted), len(differences)))
        return 1 if differences else 0
    with open(a.manifest, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for path, tests in sorted(counted.items()):
        print("%5d %s" % (total(tests), path))
    return 0


def total(tests):
    return None if tests is None else sum(len(v) for v in tests.values())


if __name__ == "__main__":
    sys.exit(main())
