"""Benchmark: ``ctxlib mcp`` against repomix's MCP server, the same tree, the same client, one run.

Both servers are started over stdio and spoken to by the official SDK's client, as an agent's harness
would. The tree is the course's sample shop project (28 files) with four credentials planted in four
formats (a dotenv AWS key, a kubeconfig's client key, a private key inside a Python string, a
``.netrc`` password). Measured for each server:

- what one "pack this for the task" call returns, in exact o200k_base tokens (ctxlib: ``pack`` with the
  query and a budget; repomix: ``pack_codebase`` then ``read_repomix_output`` of the whole result, since
  its pack returns an output id to read or grep);
- whether the budget was held, and which planted secrets appear in the returned text (for ctxlib, a second
  call asks for them outright: a query naming them and a budget of 200,000 tokens, room for the whole tree);
- whether a folder outside the tree can be packed (ctxlib: ``path`` outside its ``--root``; repomix: its
  ``directory`` argument, which takes any absolute path).

    python benchmarks/bench_mcp.py                              # ctxlib only
    python benchmarks/bench_mcp.py --repomix node_modules/.bin/repomix   # npm install repomix@1.18.1

Prints a Markdown table and saves the figures to ``benchmarks/results/bench_mcp.json`` (with the commit,
date, load and cores); ``python3 run.py bench-tables`` writes the README's paragraph from it. Needs the
[mcp] extra.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from ctxlib.course.sample_project import build_sample_project
from ctxlib.tokens import count_tokens

sys.path.insert(0, str(Path(__file__).parent))
import results_meta  # noqa: E402

QUERY = "vat invoice rounding"
BUDGET = 3000
SWEEP_QUERY = "aws access key kube config client netrc password signing private key"
# Made-up credentials in real shapes (none is valid anywhere).
SECRETS = {
    "dotenv AWS key": ("deploy/prod.env", "AWS_ACCESS_KEY_ID=AKIAQ3EGRTYUIOPASDFG\n"
                       "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEYq\n",
                       "AKIAQ3EGRTYUIOPASDFG"),
    "kubeconfig client key": (".kube/config", "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n"
                              "    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NB"
                              "UUVBdjVzZ2h0ZXN0a2V5ZGF0YWZvcmN0eGxpYmJlbmNobWFya3M=\n",
                              "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NB"),
    "private key in a .py string": ("shop/signing.py", 'KEY = """-----BEGIN RSA PRIVATE KEY-----\n'
                                    "MIIEowIBAAKCAQEAv5sghtestkeydataforctxlibbenchmarksonlyQ1w2e3r4t5y6\n"
                                    'u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c2v3b4n5m6\n-----END RSA PRIVATE KEY-----"""\n\n'
                                    "def sign(invoice):\n    return hash((KEY, invoice))\n",
                                    "MIIEowIBAAKCAQEAv5sghtestkeydataforctxlibbenchmarksonlyQ1w2e3r4t5y6"),
    ".netrc password": (".netrc", "machine pypi.example.org login shop password s3cr3t-n3trc-pa55w0rd\n",
                        "s3cr3t-n3trc-pa55w0rd"),
}


def build_tree(dest: Path) -> Path:
    root = build_sample_project(dest / "shop")
    for rel, text, _ in SECRETS.values():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (dest / "elsewhere").mkdir()
    (dest / "elsewhere" / "private.txt").write_text("notes outside the tree\n", encoding="utf-8")
    return root


async def session_calls(command: list[str], calls):
    params = StdioServerParameters(command=command[0], args=command[1:])
    with open("/dev/null", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return [await calls(session)]


def leaks(text: str) -> list[str]:
    return [name for name, (_, _, marker) in SECRETS.items() if marker in text]


async def measure_ctxlib(root: Path) -> dict:
    async def calls(session):
        packed = await session.call_tool("pack", {"query": QUERY, "budget": BUDGET})
        sweep = await session.call_tool("pack", {"query": SWEEP_QUERY, "budget": 200_000})
        outside = await session.call_tool("pack", {"query": QUERY, "budget": BUDGET,
                                                   "path": str(root.parent / "elsewhere")})
        return packed, sweep, outside

    (packed, sweep, outside), = await session_calls([sys.executable, "-m", "ctxlib", "mcp", "--root", str(root)],
                                                    calls)
    text = packed.content[0].text
    return {"server": "ctxlib mcp", "asked": f"pack, budget {BUDGET:,}", "tokens": count_tokens(text),
            "budget_held": count_tokens(text) <= BUDGET, "leaked": leaks(text + sweep.content[0].text),
            "ranked": packed.structured_content["packed"][0]["path"], "outside": not outside.is_error}


async def measure_repomix(root: Path, repomix: str) -> dict:
    async def calls(session):
        packed = await session.call_tool("pack_codebase", {"directory": str(root)})
        outside = await session.call_tool("pack_codebase", {"directory": str(root.parent / "elsewhere")})
        output_id = json.loads(packed.content[-1].text)["outputId"] if packed.content else None
        whole = await session.call_tool("read_repomix_output", {"outputId": output_id})
        return whole, outside

    (whole, outside), = await session_calls([repomix, "--mcp"], calls)
    text = "\n".join(c.text for c in whole.content if getattr(c, "text", None))
    return {"server": "repomix --mcp", "asked": "pack_codebase (no budget, no query)", "tokens": count_tokens(text),
            "budget_held": None, "leaked": leaks(text), "ranked": "(no ranking)", "outside": not outside.is_error}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repomix", help="path to the repomix command (npm install repomix)")
    parser.add_argument("--no-save", action="store_true", help="do not write benchmarks/results/")
    args = parser.parse_args(argv)
    started_meta = results_meta.meta()
    work = Path(tempfile.mkdtemp(prefix="bench-mcp-"))
    try:
        root = build_tree(work)
        rows = [anyio.run(measure_ctxlib, root)]
        if args.repomix:
            rows.append(anyio.run(measure_repomix, root, args.repomix))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"Tree: the sample shop project with {len(SECRETS)} planted credentials; task {QUERY!r}.\n")
    print("| server | call | tokens returned (o200k_base) | budget held | planted secrets returned | first file | "
          "packs a folder outside its tree |")
    print("|---|---|---:|---|---|---|---|")
    for r in rows:
        held = "n/a (none)" if r["budget_held"] is None else ("yes" if r["budget_held"] else "NO")
        print(f"| {r['server']} | {r['asked']} | {r['tokens']:,} | {held} | "
              f"{len(r['leaked'])} of {len(SECRETS)}{': ' + ', '.join(r['leaked']) if r['leaked'] else ''} | "
              f"{r['ranked']} | {'yes' if r['outside'] else 'no (refused)'} |")
    if not args.no_save:
        version = (subprocess.run([args.repomix, "--version"], capture_output=True, text=True).stdout.strip()
                   if args.repomix else None)
        saved = {"query": QUERY, "budget": BUDGET, "secrets": list(SECRETS), "repomix_version": version, "rows": rows}
        print("wrote", results_meta.write("bench_mcp", saved, started_meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
