"""The ranking's signals, each on a case small enough to check by hand, and the long-query bound."""
import math
from pathlib import Path

import pytest

from ctxlib import bm25, pathkinds, ranking
from ctxlib.ranking import KIND_PRIOR, clean_query, path_kind, rank_files, stem

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("path, kind", [
    ("ctxlib/ceiling.py", "source"), ("tests/test_ceiling.py", "test"), ("pkg/x_test.py", "test"),
    ("typing_tests/mypy.py", "test"), ("conftest.py", "test"), ("CHANGES.rst", "changelog"),
    ("docs/changelog.md", "changelog"), ("changes/123.bugfix.rst", "changelog"), ("README.md", "docs"),
    ("docs/api.rst", "docs"), ("pyproject.toml", "config"), (".gitignore", "config"), ("setup.py", "config"),
    ("Makefile", "config"), ("src/_vendor/six.py", "vendored"), ("build/lib/shop/cart.py", "generated"), ("static/718.a7a3f80ef4813fab.js", "generated"),
    ("web/app.min.js", "generated"), ("src/app.js", "source"), ("proto/trace/v1/trace_pb2.pyi", "generated"),
    ("proto/collector/trace_service_pb2_grpc.py", "generated"),
])
def test_path_kind(path, kind):
    assert path_kind(path) == kind


@pytest.mark.parametrize("path, kind", [
    # lock files, source maps and a committed virtualenv are written by tools, not by the project
    ("go.sum", "generated"), ("web/pnpm-lock.yaml", "generated"), ("npm-shrinkwrap.json", "generated"),
    ("android/gradle.lockfile", "generated"), ("Package.resolved", "generated"), ("Cargo.lock", "generated"),
    ("static/app.js.map", "generated"), ("lib/jquery.min.map", "generated"), ("dist/types/index.d.ts.map", "generated"),
    ("myenv/lib/python3.12/site-packages/flask/app.py", "vendored"), (".venv/bin/activate", "vendored"),
    ("web/node_modules/react/index.js", "vendored"), ("web/node_modules/x/dist/x.min.js", "vendored"),
    ("go.mod", "config"), ("package.json", "config"), ("src/map.py", "source"), ("src/sitemap.ts", "source"),
    # tests as other languages write them
    ("pkg/server/handler_test.go", "test"), ("src/cart.test.ts", "test"), ("src/cart.spec.js", "test"),
    ("src/__tests__/cart.tsx", "test"), ("src/components/__snapshots__/Button.test.tsx.snap", "test"),
    ("src/__mocks__/fs.js", "test"), ("spec/models/user_spec.rb", "test"), ("lib/user_spec.rb", "test"),
    ("MyApp.Tests/CartTests.cs", "test"), ("MyApp/Cart.cs", "source"), ("src/contest.py", "source"),
])
def test_path_kind_knows_other_ecosystems(path, kind):
    assert path_kind(path) == kind


@pytest.mark.parametrize("word, stemmed", [("types", "type"), ("classes", "class"), ("entries", "entry"),
                                           ("class", "class"), ("is", "is"), ("headers", "header")])
def test_stem_is_plurals_only(word, stemmed):
    assert stem(word) == stemmed


def test_cleaning_drops_what_names_no_code_and_keeps_identifiers_as_written():
    q = clean_query("Fix NO_PROXY in abc1234f, see https://example.org/x and #1234")
    assert q.terms == ("fix", "no", "proxy", "in", "see", "and") and q.identifiers == ("NO_PROXY",)
    assert q.dropped == ("https://example.org/x", "abc1234f", "1234")
    assert clean_query("Fix docs for Flask.test_client_class").identifiers == (
        "Flask.test_client_class", "test_client_class")
    assert clean_query("fix 12", signals=()).terms == ("fix", "12")
    with pytest.raises(ValueError, match="only numbers, hashes or URLs"):
        clean_query("12 deadbeef1 https://example.org")


FILES = {
    "shop/vat.py": "def vat_rate(country):\n    return RATES[country]\n",
    "tests/test_vat.py": "from shop.vat import vat_rate\n\ndef test_vat_rate():\n    assert vat_rate('DE') == 0.19  # vat rate vat rate\n",
    "shop/invoice.py": "from .vat import vat_rate\n\ndef total(lines):\n    return sum(lines)\n",
    "docs/changelog.md": "vat rate vat rate vat rate\n" * 5,
    "shop/types.py": "Money = int\n",
    "shop/cart.py": "from shop import vat\n\nLINES = []\n",
}


def test_each_signal_on_a_hand_made_repository():
    ranked = {r.path: r for r in rank_files(FILES, "vat rate")}
    plain = {r.path: r for r in rank_files(FILES, "vat rate", signals=())}
    # kind: the changelog keeps 0.15 of its BM25 score, the test 0.4 of its own
    assert ranked["docs/changelog.md"].score == pytest.approx(plain["docs/changelog.md"].score * 0.15)
    test = ranked["tests/test_vat.py"]
    assert ("kind", "test: x 0.4") in test.effects
    # tests: the module gets half of the (already scaled) test score; identifiers: it defines vat_rate
    idf = math.log(1 + (6 - 1 + 0.5) / (1 + 0.5))  # one file defines vat_rate (the test defines test_vat_rate)
    assert ranked["shop/vat.py"].effects[0] == ("identifiers", f"defines vatrate: +{2 * idf:.2f}")
    assert ("tests", f"tested by tests/test_vat.py: +{0.5 * test.score:.2f}") in ranked["shop/vat.py"].effects
    # imports: cart.py and invoice.py import the best file and get IMPORT_SHARE of its score
    best = max(ranked.values(), key=lambda r: r.score)
    assert best.path == "shop/vat.py"
    before = best.score - float(best.effects[-1][1].split("+")[1])  # vat.py's own share from invoice.py
    for path in ("shop/cart.py", "shop/invoice.py"):
        share = [e for s, e in ranked[path].effects if s == "imports"]
        assert share == [f"imports or is imported by shop/vat.py: +{0.15 * before:.2f}"]
    assert not [e for s, e in test.effects if s == "imports"]  # a test takes no import share
    # names: "types" in the query names shop/types.py through its stem
    named = {r.path: r for r in rank_files(FILES, "type hints")}["shop/types.py"]
    assert named.bm25 == 0 and named.effects[0][0] == "names"
    assert "bm25: " in ranking.explain_ranked(best) and "tests: tested by" in ranking.explain_ranked(best)


def test_first_turn_ceiling_ranks_the_module_above_its_test():
    files = {p.relative_to(ROOT).as_posix(): p.read_text() for p in (ROOT / "ctxlib").glob("*.py")}
    files.update({p.relative_to(ROOT).as_posix(): p.read_text() for p in (ROOT / "tests").glob("test_*.py")})
    order = [r.path for r in rank_files(files, "first turn ceiling")]
    assert order.index("ctxlib/ceiling.py") < order.index("tests/test_ceiling.py")
    assert order[0] == "ctxlib/ceiling.py"
    before = [p for p, _ in sorted(((p, s.score) for p, s in bm25.bm25_scores(files, "first turn ceiling").items()),
                                   key=lambda kv: -kv[1])]
    assert before[0] == "tests/test_ceiling.py"  # what plain BM25 did: the test first


def test_unknown_signal_is_one_line():
    with pytest.raises(ValueError, match="unknown signal 'prior': choose from clean, identifiers"):
        rank_files(FILES, "vat", signals=("prior",))


def test_a_long_query_is_bounded_to_the_rarest_terms_that_occur():
    common = ["w" + chr(97 + j // 26) + chr(97 + j % 26) for j in range(40)]  # waa, wab, ...
    files = {f"f{i}.py": " ".join(common) + (" rare" if i == 0 else "") for i in range(5)}
    selected = bm25.select_terms(files, common + ["rare", "nowhere"] * 50)
    assert len(selected.terms) == bm25.MAX_QUERY_TERMS and "rare" in selected.terms
    assert selected.absent == ("nowhere",)
    assert len(selected.capped) == 41 - bm25.MAX_QUERY_TERMS
    assert selected.note() == ("24 of 42 distinct query terms scored (1 occur in no file, 17 of the commonest "
                               "left out past 24)")
    assert bm25.select_terms(files, ["rare", "rare", "nowhere"]).terms == ("rare", "nowhere")  # short: as is


def test_a_long_query_is_bounded_by_files_holding_each_term_as_a_word():
    # Files holding each term as a word: rate 3, vat 1 (three times in a.py), tax 1, zip 0. With a
    # cap of 2 the two held by fewest files stay: vat and tax. Counting occurrences instead would
    # rank vat with rate (3 each) and keep rate, the first in query order. "a" is a word of a.py's path.
    files = {"a.py": "vat vat vat rate", "b.py": "rate tax", "c.py": "rate"}
    selected = bm25.select_terms(files, ["rate", "vat", "tax", "zip", "a"], max_terms=2)
    assert (selected.terms, selected.absent, selected.capped) == (("vat", "tax"), ("zip",), ("rate", "a"))
    assert selected.found_in == {"vat": frozenset({"a.py"}), "tax": frozenset({"b.py"})}
    assert bm25.select_terms(files, ["rate", "vat"], max_terms=2).found_in is None  # short: no pass over the tree
    scores = bm25.bm25_scores(files, "", terms=selected.terms, found_in=selected.found_in)
    assert scores == bm25.bm25_scores(files, "", terms=selected.terms)  # the reused pass changes nothing


def test_a_term_found_only_inside_words_counts_one_file_and_is_scored_where_it_is_a_part():
    # "vat" is a word of a.py and b.py but only a part inside computeVatRate in c.py: rarity 2 (the
    # files where it is a word of its own), yet c.py is among the files bm25_scores counts it in.
    # "ompute" occurs only inside a word: rarity 1, kept, but it is no whole part anywhere.
    files = {"a.py": "vat tax", "b.py": "vat tax", "c.py": "x = computeVatRate(tax)"}
    selected = bm25.select_terms(files, ["tax", "vat", "ompute", "zip"], max_terms=2)
    assert (selected.terms, selected.absent, selected.capped) == (("vat", "ompute"), ("zip",), ("tax",))
    assert selected.found_in == {"vat": frozenset(files), "ompute": frozenset({"c.py"})}
    scores = bm25.bm25_scores(files, "", terms=selected.terms, found_in=selected.found_in)
    assert [t.body_tf for t in scores["c.py"].terms] == [1, 0]
    assert scores == bm25.bm25_scores(files, "", terms=selected.terms)


def test_a_one_character_term_counts_as_the_commonest():
    # "t" (of "doesn't") is a word of one file only, but it is inside nearly every word: it goes
    # before "rate", which three of the four files hold.
    files = {"a.py": "t = rate", "b.py": "rate", "c.py": "rate", "d.py": "x"}
    selected = bm25.select_terms(files, ["t", "rate"], max_terms=1)
    assert (selected.terms, selected.capped) == (("rate",), ("t",))


def test_words_by_file_cuts_at_every_byte_but_an_ascii_letter_or_digit():
    assert bm25.words_by_file({"shop/vat.py": "vat_rate = computeVatRate(x) # Größe HTTP2"}) == [
        {b"shop", b"vat", b"py", b"rate", b"computevatrate", b"x", b"gr", b"e", b"http2"}]


def test_the_pass_over_the_tree_finds_every_file_the_scans_find():
    # On this repository's own code: for the terms of a long query, the files holding each
    # term from words_by_file are a superset of those bm25_scores counts it in, so the scores
    # are those of the scans, exactly.
    files = {p.relative_to(ROOT).as_posix(): p.read_text() for p in (ROOT / "ctxlib").rglob("*.py")}
    terms = bm25.query_terms(Path(ROOT / "ctxlib" / "bm25.py").read_text())
    selected = bm25.select_terms(files, terms, max_terms=len(terms) - 1)
    assert len(selected.terms) == len(terms) - 1 and selected.found_in is not None
    assert (bm25.bm25_scores(files, "", terms=selected.terms, found_in=selected.found_in)
            == bm25.bm25_scores(files, "", terms=selected.terms))


def test_a_short_query_keeps_what_a_log_adds_and_a_long_one_drops_it():
    # Up to MAX_QUERY_TERMS distinct terms the query is cleaned as before (a hex address splits
    # into letters); a longer one is pasted text, and its addresses, digests and timestamps go.
    short = "crash at 0x7f3a in parse"
    assert ranking.clean_query(short).terms == ("crash", "at", "x", "f", "a", "in", "parse")
    words = " ".join(f"w{chr(97 + j)}" for j in range(24))  # wa wb ... wx: 24 distinct terms
    long = ranking.clean_query(f"{words} {short} sha256 " + "9f86d081" * 8 + " at 2026-01-18T12:45:51Z")
    assert long.dropped == ("0x7f3a", "9f86d081" * 8, "2026-01-18T12:45:51Z", "256")  # 256 of sha256: a number
    assert long.terms == tuple(words.split()) + ("crash", "at", "in", "parse", "sha")  # no x, f, a, d, t, z


def test_plain_bm25_by_hand():
    files = {"a.txt": "vat vat x", "b.txt": "y z w"}
    idf = math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    norm = 1 - 0.75 + 0.75 * 3 / 3
    assert bm25.plain_bm25_scores(files, "VAT")["a.txt"] == pytest.approx(idf * 2 * 2.2 / (2 + 1.2 * norm))
    assert bm25.plain_bm25_scores({"vat.py": "x"}, "vat") == {"vat.py": 0.0}  # no file-name field


def test_a_huge_query_is_never_echoed_whole():
    assert bm25.shorten("x" * 5000) == "x" * 50 + "... (5,000 characters)"
    with pytest.raises(ValueError) as info:
        bm25.query_terms("!" * 5000)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("path, kind", [
    ("requests/packages/urllib3/connection.py", "vendored"), ("requests/packages/__init__.py", "source"),
    ("packages/hatchling/src/hatchling/build.py", "source"),  # a monorepo's own packages/
    ("src/pip/_vendor/rich/console.py", "vendored"), ("third_party/six/six.py", "vendored"),
    ("vendor/github.com/gin-gonic/gin/context.go", "vendored"), ("src/pip/_vendor/vendor.txt", "vendored"),
])
def test_vendored_copies_are_named_and_ranked_below_the_projects_own_code(path, kind):
    assert path_kind(path) == kind
    assert KIND_PRIOR[kind] == (0.1 if kind == "vendored" else 1.0)


def test_packaging_and_example_files_are_named():
    assert [p for p in ("setup.py", "pyproject.toml", "backend/pyproject.toml", "tox.ini", ".travis.yml",
                        ".github/workflows/tests.yaml", "src/pkg/setup.py", "docs/conf.py", "README.md")
            if ranking.is_packaging(p)] == ["setup.py", "pyproject.toml", "backend/pyproject.toml", "tox.ini",
                                            ".travis.yml", ".github/workflows/tests.yaml"]
    assert ranking.is_example("examples/tutorial/flaskr/db.py") and not ranking.is_example("src/flask/app.py")


def test_a_packaging_task_reaches_setup_py_and_examples_keep_half_unless_asked():
    files = {"setup.py": "from setuptools import setup\nsetup(name='shop', zip_safe=True)\n",
             "shop/cart.py": "def add(cart, item):\n    cart.append(item)  # safe add\n",
             "examples/cart_demo.py": "from shop.cart import add\nadd([], 'item')  # add item to cart\n"}
    ranked = [r.path for r in rank_files(files, "Add zip_safe=False") if r.score > 0]
    assert ranked[0] == "setup.py"  # a packaging word (zip): the packaging file ranks as source, or higher
    plain = {r.path: r.score for r in rank_files(files, "add item to cart")}
    asked = {r.path: r.score for r in rank_files(files, "add item to cart example")}
    assert ("kind", "example: x 0.5") in next(r for r in rank_files(files, "add item to cart")
                                              if r.path == "examples/cart_demo.py").effects
    assert asked["examples/cart_demo.py"] > plain["examples/cart_demo.py"]


def test_scores_do_not_depend_on_the_processs_hash_seed():
    # A file defining several query names adds their idf shares; summed in a set's order, the last
    # bit of the score (and so a tie's order, and a pack) changed with PYTHONHASHSEED.
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import json\nfrom ctxlib.ranking import rank_files\n"
        "files = {'a.py': 'def alpha_beta(): pass\\ndef beta_gamma(): pass\\ndef gamma_delta(): pass\\n"
        "def alpha_beta_gamma(): pass\\ndef beta_gamma_delta(): pass\\n',\n"
        "         'b.py': 'def beta_gamma(): pass\\nalpha delta\\n',\n"
        "         'c.py': 'def gamma_delta(): pass\\ndef beta_gamma(): pass\\nalpha beta\\n',\n"
        "         'd.py': 'def alpha_beta_gamma(): pass\\ndelta\\n'}\n"
        "files.update({f'x{i}.py': 'alpha beta gamma delta\\n' for i in range(7)})\n"
        "print(json.dumps([(r.path, repr(r.score)) for r in rank_files(files, 'alpha beta gamma delta')]))\n")
    root = Path(__file__).resolve().parents[1]
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(16)}
    assert len(outputs) == 1
    best = json.loads(outputs.pop())[0]  # Python 3.12's sum() of floats is compensated: the last bit differs from 3.11's
    assert best[0] == "a.py" and abs(float(best[1]) - 17.22873432462001) < 1e-12


def test_a_version_named_whole_is_a_packaging_word():
    # "CPython" splits into c + python; whole, it is the packaging word cpython (PyPI, PyPy3 alike).
    files = {"tox.ini": "[tox]\nenvlist = py38, py39\n", "shop/cart.py": "def add(cart, item):\n    pass  # support\n"}
    assert ranking.task_words(clean_query("Drop support for CPython 3.7")) >= {"cpython", "support"}
    assert ranking.task_words(clean_query("Fix PyPy3 support and PyPI upload")) >= {"pypy", "pypi"}
    ranked = {r.path: r for r in rank_files(files, "Drop support for CPython 3.7")}
    assert ranked["tox.ini"].score > 0 and "at least" in dict(ranked["tox.ini"].effects)["kind"]


def test_a_name_in_backticks_is_an_identifier():
    files = {"routing.py": "class Router:\n    def add(self, middleware):\n        pass\n",
             "app.py": "from .routing import Router\n\ndef run(middleware, router):\n    router.add(middleware)\n"}
    assert "Router" in clean_query("Add middleware per `Router`").identifiers
    assert clean_query("Add middleware per Router").identifiers == ()  # a capital alone is not a name
    assert clean_query("use ``jsonify`` and `app.on_event()`").identifiers == ("jsonify", "app.on_event", "on_event")
    best = rank_files(files, "Add middleware per `Router`")[0]
    assert best.path == "routing.py" and dict(best.effects)["identifiers"].startswith("defines router: +")



def test_a_dotted_name_counts_its_last_part_once():
    # "safefile.write_atomically" is kept as written and as "write_atomically": one name, one bonus.
    files = {"safefile.py": "def write_atomically(path, data):\n    pass\n",
             "progress.py": "from safefile import write_atomically\n\nwrite_atomically('p', b'')\n",
             "other.py": "def lock(path):\n    pass\n"}
    q = clean_query("make safefile.write_atomically lock the file")
    assert q.identifiers == ("safefile.write_atomically", "write_atomically")
    ranked = {r.path: r for r in rank_files(files, q)}
    says = [str(e) for s, e in ranked["progress.py"].effects if s == "identifiers" and "whole" in str(e)]
    tf, idf = 2, bm25.inverse_document_frequency(3, 2)  # 2 of 3 files say it; progress.py twice
    assert says == [f"says write_atomically whole 2 times: +{idf * tf * (bm25.K1 + 1) / (tf + bm25.K1):.2f}"]

def test_maintainers_scripts_keep_half_unless_the_task_speaks_of_them():
    files = {"scripts/release.py": "def release(version):\n    print('release version', version)\n",
             "shop/version.py": "VERSION = '1.0'  # the version, see release notes\n"}
    assert ranking.is_tooling("scripts/release.py") and ranking.is_tooling("tools/ci/check.py")
    assert not ranking.is_tooling("shop/scripts.py")
    plain = {r.path: r for r in rank_files(files, "release version")}
    assert ("kind", "tooling: x 0.5") in plain["scripts/release.py"].effects
    asked = {r.path: r for r in rank_files(files, "release script version")}
    assert "tooling" not in str(asked["scripts/release.py"].effects)


def test_a_file_that_says_it_is_generated_ranks_as_generated():
    assert ranking.says_generated("# -*- coding: utf-8 -*-\n# Generated by the protocol buffer compiler.  DO NOT EDIT!\n")
    assert ranking.says_generated("#\n# This file is autogenerated by pip-compile with Python 3.12\n")
    assert ranking.says_generated("#\n# Autogenerated by Thrift Compiler (0.10.0)\n#\n# DO NOT EDIT UNLESS YOU ARE SURE\n")
    # Sphinx's conf.py says "autogenerated" of itself, but people edit it; and only the head is read.
    assert not ranking.says_generated("# Note that not all possible configuration values are present in this\n"
                                      "# autogenerated file.\n")
    assert not ranking.says_generated("x = 1\n" * 200 + "# generated code below: DO NOT EDIT\n")
    files = {"gen/agent.py": "# Autogenerated by Thrift Compiler\n# DO NOT EDIT\ndef emit_batch(spans): pass\n",
             "exporter/agent.py": "def send(spans):\n    emit_batch(spans)  # emit a batch of spans\n"}
    ranked = {r.path: r for r in rank_files(files, "emit batch of spans")}
    assert ("kind", "generated (its head says so): x 0.1") in ranked["gen/agent.py"].effects
    assert ranked["exporter/agent.py"].score > ranked["gen/agent.py"].score


def test_other_ecosystems_manifests_are_packaging_files():
    assert [p for p in ("package.json", "Cargo.toml", "go.mod", "pom.xml", "web/package.json", "src/app/package.json",
                        "node_modules/x/package.json", "Gemfile", "Gemfile.lock")
            if ranking.is_packaging(p)] == ["package.json", "Cargo.toml", "go.mod", "pom.xml", "web/package.json", "Gemfile"]


def test_a_source_map_and_a_lock_file_rank_below_the_code_they_were_made_from():
    # Before lock files and source maps were known as generated, both ranked above the test (2.56 and 0.82).
    src = "export function cartTotal(items) {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n"
    files = {"src/cart.js": src,
             "src/user.js": "export function userName(u) { return u.first + ' ' + u.last; }\n",
             "static/app.js.map": '{"version":3,"sources":["../src/cart.js"],"names":["cartTotal","items","qty"],'
                                  f'"mappings":"AAAA","sourcesContent":[{src!r},{src!r}]}}',
             "src/cart.test.js": "import {cartTotal} from './cart';\n"
                                 "test('cart total', () => expect(cartTotal([{price: 2, qty: 3}])).toBe(6));\n",
             "go.sum": "github.com/cart/total v1.0.0 h1:abc=\n"}
    ranked = [(r.path, r.kind) for r in rank_files(files, "cart total is wrong for items with qty") if r.score > 0]
    assert ranked == [("src/cart.js", "source"), ("src/cart.test.js", "test"), ("static/app.js.map", "generated"),
                      ("go.sum", "generated")]


@pytest.mark.parametrize("query, names", [
    ("Bump urllib3 from 1.26.5 to 1.26.18", ("urllib3",)),
    ("chore(deps): bump golang.org/x/net from 0.25.0 to 0.27.0 Bumps [golang.org/x/net](https://x) from 0.25.0",
     ("golang.org/x/net",)),
    ("upgrade github.com/ugorji/go/codec", ("github.com/ugorji/go/codec",)),
    ("Update dependency eslint to v9", ("eslint",)),
    ("Bump @types/node from 20.1.0 to 20.2.0", ("@types/node",)),
    ("Pin pytest<8", ("pytest",)),
    ("Bump actions/checkout from 3 to 4", ("actions/checkout",)),
    # no version follows, and no module path: no dependency
    ("update type annotations", ()), ("Upgrade isort and enable black compat mode", ()),
    ("Update docs for the DateTime field", ()), ("update dev dependencies", ()),
    ("chore: bump minimum Go version to 1.24", ()), ("Bump version to 2.0.1", ()),
])
def test_the_dependencies_a_task_moves_are_read_from_dependabots_words(query, names):
    assert ranking.named_dependencies(query) == names


def test_a_manifest_declares_a_name_only_whole():
    declared = ranking.declared
    assert declared("urllib3>=1.21\nflit_core>=3\n", ("flit", "urllib3")) == ("urllib3",)
    assert declared("pyyaml\nruamel.yaml>=0.17\n", ("yaml",)) == ()
    assert declared("require github.com/ugorji/go v1.1.7\n", ("github.com/ugorji/go/codec",)) == (
        "github.com/ugorji/go/codec",)  # a Go package, by its module
    assert declared('"@types/react": "^18"', ("@types/node",)) == ()  # never a scope alone
    assert declared("      - uses: actions/checkout@v3\n", ("actions/checkout",)) == ("actions/checkout",)
    assert declared("anything", ()) == ()


def test_a_dependency_task_ranks_the_manifests_that_declare_it_first():
    files = {
        "go.mod": "module github.com/gin-gonic/gin\n\nrequire (\n\tgithub.com/goccy/go-yaml v1.19.0\n)\n",
        "go.sum": "github.com/goccy/go-yaml v1.19.0 h1:abc=\n",
        "render/yaml.go": "package render\n\nimport \"github.com/goccy/go-yaml\"\n\nfunc yamlRender() {}\n" * 3,
        "examples/go.mod": "module example\n\nrequire github.com/other/thing v1.0.0\n",
        "requirements/dev.txt": "pyyaml==6.0\n",
    }
    query = "chore(deps): bump github.com/goccy/go-yaml from 1.19.0 to 1.19.1"
    ranked = rank_files(files, query)
    assert ranked[0].path == "go.mod"
    before_kind = rank_files(files, query, signals=("clean", "identifiers", "names"))
    assert ranked[0].score == pytest.approx(ranking.DEPENDENCY_LIFT * before_kind[0].score)  # 1.1 x the best
    assert ("kind", f"declares github.com/goccy/go-yaml, which the task moves: at least {ranked[0].score:.2f}") \
        in ranked[0].effects
    lifted = [r.path for r in ranked if any("which the task moves" in e for _, e in r.effects)]
    assert lifted == ["go.mod"]  # not the example's go.mod, not a lock file, not pyyaml
    without = rank_files(files, query, signals=("clean", "identifiers", "names", "tests", "imports"))
    assert without[0].path == "render/yaml.go"  # the kind signal is what lifts it


def test_a_long_query_names_at_most_max_dependencies():
    query = " ".join(f"bump pkg{i}.mod from 1.0 to 2.0" for i in range(2_000))
    names = ranking.named_dependencies(query)
    assert len(names) == pathkinds.MAX_DEPENDENCIES == 20 and names[0] == "pkg0.mod"
