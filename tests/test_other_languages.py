"""The ranking's tests and imports signals on JavaScript, TypeScript, Go, Ruby, Java and C# trees: each
language's own naming of tests, and JavaScript's and TypeScript's relative imports, checked by hand."""
import pytest

from ctxlib.imports import js_imports, neighbours
from ctxlib import pathkinds
from ctxlib.ranking import rank_files


@pytest.mark.parametrize("path, key", [
    ("tests/test_vat.py", ("vat", "python")), ("pkg/vat_test.py", ("vat", "python")),
    ("src/cart.test.ts", ("cart", "js")), ("src/cart.spec.jsx", ("cart", "js")), ("src/__tests__/cart.js", ("cart", "js")),
    ("pkg/server/handler_test.go", ("handler", "go")), ("spec/models/user_spec.rb", ("user", "ruby")),
    ("src/test/java/shop/CartTest.java", ("Cart", "jvm")), ("Shop.Tests/CartTests.cs", ("Cart", "dotnet")),
    ("tests/Unit/CartTest.php", ("Cart", "php")), ("test/cart_test.exs", ("cart", "elixir")),
    ("tests/helpers.py", None), ("tests/test_.py", None), ("src/cart.ts", None), ("docs/test_plan.md", None),
    ("src/Test.java", None), ("src/cart.test.snap", None),
])
def test_a_test_is_named_after_its_module_as_its_language_names_it(path, key):
    assert pathkinds.tested_key(path) == key


def test_module_keys_keep_case_and_know_only_code():
    assert pathkinds.module_key("src/shop/Cart.java") == ("Cart", "jvm")
    assert pathkinds.module_key("src/cart.ts") == ("cart", "js")
    assert [p for p in ("README.md", "Makefile", "src/.ts", "data.json") if pathkinds.module_key(p)] == []
    assert pathkinds.module_key("shop/vat.pyi") is None  # a stub is not the module a test runs


def test_relative_imports_resolve_as_bundlers_resolve_them():
    text = "\n".join([
        'import {total} from "./cart"',          # an extension added: src/cart.ts
        "import util from '../lib/util.js'",     # .js written for a .ts file (TypeScript's ES modules)
        "const user = require('./models/user')",  # a folder: its index file
        'export * from "./index.js"',
        "const lazy = import('./lazy')",
        "import React from 'react'",             # a package, not a file of the tree
        "import up from '../../outside'",        # leaves the tree
        "import gone from './missing'",          # names no file
        "import again from './cart.ts'",         # the same file again: listed once
    ])
    tree = {"src/app.ts", "src/cart.ts", "lib/util.ts", "src/models/user/index.js", "src/index.ts", "src/lazy.tsx"}
    assert js_imports("src/app.ts", text, tree) == (
        "src/cart.ts", "lib/util.ts", "src/models/user/index.js", "src/index.ts", "src/lazy.tsx")
    assert js_imports("index.js", "import me from './index.js'", {"index.js"}) == ()  # not itself


def test_javascript_neighbours_of_the_best_file():
    files = {"src/cart.ts": "export function cartTotal() {}\n",
             "src/checkout.ts": "import {cartTotal} from './cart';\n",
             "src/user.ts": "export const user = 'cart';\n",  # says cart, imports nothing
             "src/api/index.ts": "export * from '../cart';\n"}
    assert neighbours(files, list(files), ["src/cart.ts"]) == {
        "src/checkout.ts": ["src/cart.ts"], "src/api/index.ts": ["src/cart.ts"]}
    # the best file's own imports link it the other way
    assert neighbours(files, list(files), ["src/checkout.ts"]) == {"src/cart.ts": ["src/checkout.ts"]}


def test_a_typescript_test_lifts_its_module_and_an_importer_gets_a_share():
    files = {
        "src/cart.ts": "export function cartTotal(items: Item[]) { return items.length; }\n",
        "src/cart.test.ts": "import {cartTotal} from './cart';\n"
                            "test('cart total counts items', () => expect(cartTotal([])).toBe(0));\n"
                            "test('cart total of one', () => expect(cartTotal([item])).toBe(1));\n",
        "src/checkout.ts": "import {cartTotal} from './cart';\nexport const pay = () => cartTotal([]);\n",
        "src/user.ts": "export const user = {name: 'x'};\n",
    }
    ranked = {r.path: r for r in rank_files(files, "cart total counts items")}
    effects = dict(ranked["src/cart.ts"].effects)
    assert effects["tests"].startswith("tested by src/cart.test.ts: +")
    assert ranked["src/cart.test.ts"].effects[-1] == ("tests", "tests src/cart.ts, which gets 0.5 of this score")
    assert dict(ranked["src/checkout.ts"].effects)["imports"].startswith("imports or is imported by src/cart.ts: +")
    assert [r.path for r in rank_files(files, "cart total counts items")][0] == "src/cart.ts"


def test_a_go_test_lifts_the_file_beside_it():
    files = {"pkg/cart/total.go": "package cart\n\nfunc Total(items []Item) int { return len(items) }\n",
             "pkg/cart/total_test.go": "package cart\n\nfunc TestTotal(t *testing.T) { if Total(nil) != 0 "
                                       "{ t.Fatal(\"total of no items\") } }\n",
             "pkg/user/total.go": "package user\n\nfunc Total() int { return 0 }\n"}
    ranked = {r.path: r for r in rank_files(files, "total of no items")}
    assert dict(ranked["pkg/cart/total.go"].effects)["tests"].startswith("tested by pkg/cart/total_test.go")
    assert "tests" not in dict(ranked["pkg/user/total.go"].effects)  # same name, fewer folders shared


def test_a_file_of_many_imports_resolves_only_the_first_thousand():
    text = "".join(f'require("./m{i}")\n' for i in range(5_000))
    tree = {f"src/m{i}.js" for i in range(5_000)}
    found = js_imports("src/app.js", text, tree)
    assert len(found) == 1_000 and found[0] == "src/m0.js" and found[-1] == "src/m999.js"


def test_a_test_names_the_module_sharing_most_parts_then_the_shortest():
    from ctxlib.ranking import _tested_modules
    sources = {("cookies", "python"): ["src/http/cookies.py", "src/web/cookies.py", "cookies.py"],
               ("cart", "js"): ["packages/shop/src/cart.ts", "packages/admin/src/cart.ts"]}
    tested = _tested_modules(sources)
    assert tested("tests/http/test_cookies.py") == "src/http/cookies.py"  # shares "http"
    assert tested("tests/test_cookies.py") == "cookies.py"  # shares nothing: the shortest
    assert tested("packages/admin/src/__tests__/cart.test.ts") == "packages/admin/src/cart.ts"
    assert tested("e2e/cart.test.ts") == "packages/shop/src/cart.ts"  # a tie: the last by name
    assert tested("tests/test_vat.py") is None


def test_naming_a_tests_module_agrees_with_comparing_it_to_every_module():
    # The index (a part held by every module skipped, answers kept per set of parts) gives what comparing a test
    # with each module of its name gives, on random trees.
    import random
    from ctxlib.ranking import _tested_modules

    def compared(path, sources):
        candidates = sources.get(pathkinds.tested_key(path) or ("", ""), [])
        parts = set(path.split("/"))
        return max(candidates, key=lambda c: (len(parts & set(c.split("/"))), -len(c), c)) if candidates else None

    rnd = random.Random(7)
    folders = ["src", "pkg", "a", "b", "tests", "http", "x.y", "lib"]
    for _ in range(500):
        paths = {"/".join(rnd.choice(folders) for _ in range(rnd.randint(0, 4))).lstrip("/") + "/"
                 + rnd.choice(["x.py", "cart.ts", "y.go"]) for _ in range(rnd.randint(1, 10))}
        sources = {}
        for p in sorted(p.lstrip("/") for p in paths):
            sources.setdefault(pathkinds.module_key(p), []).append(p)
        tested = _tested_modules(sources)
        for _ in range(8):
            test = "/".join(rnd.choice(folders) for _ in range(rnd.randint(0, 4))) + "/" + rnd.choice(
                ["test_x.py", "x_test.py", "cart.test.ts", "y_test.go"])
            test = test.lstrip("/")
            assert tested(test) == compared(test, sources), test


def test_five_thousand_tests_beside_five_thousand_same_named_modules_each_find_theirs():
    # Compared with every module of its name, each test cost 5,000 comparisons (11 s in all); each still finds its own.
    files = {f"d{i}/x.py": "def f(): return 1\n" for i in range(5_000)}
    files.update({f"tests/d{i}/test_x.py": "def test_f(): assert f() == 1\n" for i in range(5_000)})
    ranked = {r.path: r for r in rank_files(files, "test f")}
    assert dict(ranked["tests/d4321/test_x.py"].effects)["tests"] == "tests d4321/x.py, which gets 0.5 of this score"
