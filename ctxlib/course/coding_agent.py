"""A small coding agent's fixed prefix, written for this course: its system prompt and tool schemas.

Lesson 2 measures the fixed prefix instead of assuming it. ``SYSTEM_PROMPT`` and ``TOOLS`` are
what a small harness would send on every request (five tools: read a file, search, edit a
file, run the tests, list files); ``MCP_SERVERS`` are four more tool servers of the kind a team
adds over a quarter (an issue tracker, a database, a documentation browser, CI and deploys),
each publishing its own schemas into the same prefix. Measure them with
``ctxlib.prefix.prefix_tokens(SYSTEM_PROMPT, TOOLS)``.

They are examples: a real agent's prompt and schemas are usually longer. Nothing here is called.
"""
from __future__ import annotations

from ctxlib.i18n import N_

SYSTEM_PROMPT = """\
You are a coding agent working inside a software repository on behalf of an engineer. You \
receive one task at a time: a ticket with a description and acceptance criteria. You complete \
it by reading the code, changing it, and running the tests, using the tools below. You cannot \
see any file you have not read in this conversation, and you must not guess at the contents \
of a file: read it first.

How to work:
1. Understand the task. Restate to yourself what must change and how you will know it is \
done. If the acceptance criteria name tests, those tests are the definition of done.
2. Find the relevant code. Use search to locate the functions, classes and configuration the \
task touches, and read_file to read them. Prefer reading the parts of a file you need (a line \
range) over whole large files. Look at the callers of anything whose signature you will change.
3. Plan the smallest change that meets the criteria. Do not refactor code the task does not \
need, do not rename public functions, and keep the existing style of the file.
4. Edit with edit_file. Each edit replaces an exact, unique piece of existing text; include \
enough surrounding lines to make it unique. Never rewrite a whole file to change a few lines.
5. Run the tests with run_tests: first the tests closest to your change, then the wider suite \
when those pass. Read the failures from the top: the first traceback usually names the cause; \
later failures are often consequences of the first.
6. If a test fails, change your approach based on what the output says. Do not repeat an \
attempt that already failed. After four failed attempts, stop and report what you tried, what \
failed, and what you would try next.

Rules:
- Stay inside the repository. Do not read or print files that hold credentials (.env files, \
private keys, tokens), and never put a secret in a file, a commit message or your reply.
- Do not install packages, call the network, or change the CI configuration unless the task \
asks for it.
- Keep the tests meaningful: do not delete, skip or weaken a test to make it pass. If a test is \
wrong, say so in your report and explain why.
- Money, dates and tax rules are exact: use Decimal for amounts, never float, and keep the \
rounding rules the code already documents.
- When you are done, reply with a short report: what you changed (files and functions), why, \
which tests you ran and their result, and anything the reviewer should check by hand.

Your replies are read by engineers. Be brief and concrete; quote file paths and function \
names exactly as they appear in the code.
"""


def _tool(name: str, description: str, properties: dict, required: list) -> dict:
    return {"name": name, "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required,
                           "additionalProperties": False}}


def _string(description: str) -> dict:
    return {"type": "string", "description": description}


def _integer(description: str, minimum: int = 1) -> dict:
    return {"type": "integer", "minimum": minimum, "description": description}


TOOLS = [
    _tool("read_file",
          "Read a text file of the repository and return its contents with line numbers. "
          "Give a line range to read part of a large file; without one, at most the first "
          "2,000 lines are returned. Binary files and files outside the repository are refused.",
          {"path": _string("Path of the file, relative to the repository root, e.g. shop/vat.py."),
           "start_line": _integer("First line to return (1-based). Default: 1."),
           "end_line": _integer("Last line to return, inclusive. Default: start_line + 1,999.")},
          ["path"]),
    _tool("search",
          "Search the repository's text files for a regular expression and return the matching "
          "lines as path:line: text, at most 200 matches, files listed in .gitignore skipped. "
          "Use it to find where a function is defined and where it is called.",
          {"pattern": _string("A Python regular expression, e.g. 'def vat_rate\\\\(' or 'InvoiceBuilder'."),
           "path": _string("Limit the search to this folder or file. Default: the whole repository."),
           "case_sensitive": {"type": "boolean", "description": "Match case exactly. Default: false."}},
          ["pattern"]),
    _tool("edit_file",
          "Replace one exact piece of text in a file with new text. old_text must occur exactly "
          "once in the file, including its whitespace and indentation; otherwise the edit is "
          "refused and nothing changes. To create a new file, give an empty old_text and a path "
          "that does not exist yet. Returns the changed lines as a unified diff.",
          {"path": _string("Path of the file, relative to the repository root."),
           "old_text": _string("The exact text to replace (empty to create a new file)."),
           "new_text": _string("The text to put in its place.")},
          ["path", "old_text", "new_text"]),
    _tool("run_tests",
          "Run the project's test suite, or part of it, with pytest and return its output: the "
          "tracebacks of failing tests first, then the short summary. Long output is trimmed by "
          "the harness to fit the context window. Runs with no network access and a time limit "
          "of 300 seconds.",
          {"target": _string("Tests to run, as pytest node ids or paths, e.g. tests/test_vat.py "
                             "or tests/test_vat.py::test_standard_and_reduced_rates. "
                             "Default: the whole suite."),
           "keyword": _string("Only run tests whose names match this pytest -k expression."),
           "max_failures": _integer("Stop after this many failures (pytest --maxfail). Default: no limit.")},
          []),
    _tool("list_files",
          "List the files and folders under a folder of the repository, one per line with its "
          "size in bytes, skipping what .gitignore excludes. Use it to learn the layout of an "
          "unfamiliar repository before searching.",
          {"path": _string("The folder to list, relative to the repository root. Default: the root."),
           "depth": _integer("How many levels of subfolders to show. Default: 2.")},
          []),
]


_ISSUES = [
    _tool("issues_get",
          "Fetch one issue from the issue tracker: its title, description, status, assignee, "
          "labels, linked pull requests and the last 20 comments, oldest first.",
          {"key": _string("The issue key, e.g. SHOP-412.")}, ["key"]),
    _tool("issues_search",
          "Search issues with the tracker's query language and return key, title, status and "
          "assignee for at most 50 matches, most recently updated first.",
          {"query": _string("A query, e.g. 'project = SHOP AND status = Open AND text ~ \"VAT\"'."),
           "limit": _integer("Most results to return, 1 to 50. Default: 20.")}, ["query"]),
    _tool("issues_comment",
          "Add a comment to an issue. Markdown is rendered. The comment is signed as the agent "
          "and the assignee is notified.",
          {"key": _string("The issue key."), "body": _string("The comment text, in Markdown.")},
          ["key", "body"]),
    _tool("issues_transition",
          "Move an issue to another status of its workflow (for example from In Progress to In "
          "Review). Returns the new status, or the allowed transitions if this one is not allowed.",
          {"key": _string("The issue key."),
           "status": {"type": "string", "enum": ["To Do", "In Progress", "In Review", "Done"],
                      "description": "The status to move to."}},
          ["key", "status"]),
]

_DATABASE = [
    _tool("db_list_tables",
          "List the tables and views of the read-only reporting database, with their row counts "
          "and a one-line description of each.",
          {"schema": _string("Database schema to list. Default: public.")}, []),
    _tool("db_describe_table",
          "Describe one table: each column's name, type, whether it may be null, its default, "
          "and the table's primary key, foreign keys and indexes.",
          {"table": _string("Table name, optionally schema-qualified, e.g. billing.invoices.")},
          ["table"]),
    _tool("db_query",
          "Run one read-only SQL SELECT statement against the reporting database and return at "
          "most 200 rows as a table. Statements that write, lock or run longer than 30 seconds "
          "are refused. Use LIMIT for large tables.",
          {"sql": _string("A single SELECT statement."),
           "params": {"type": "array", "items": {"type": ["string", "number", "null"]},
                      "description": "Values for the statement's %s placeholders, in order."}},
          ["sql"]),
    _tool("db_explain",
          "Show the query plan PostgreSQL would use for a SELECT statement, without running it, "
          "to check that a query uses an index.",
          {"sql": _string("A single SELECT statement.")}, ["sql"]),
]

_DOCS = [
    _tool("docs_search",
          "Search the company's internal documentation (handbooks, runbooks, architecture "
          "decision records) and return the title, path and a 300-character excerpt of at "
          "most 10 matching pages, best match first.",
          {"query": _string("Words to search for, e.g. 'VAT rounding per invoice'."),
           "space": _string("Limit to one documentation space, e.g. billing. Default: all.")},
          ["query"]),
    _tool("docs_read",
          "Read one documentation page as Markdown. Long pages are returned in sections of "
          "about 4,000 characters; ask for the next section with its number.",
          {"path": _string("The page path returned by docs_search."),
           "section": _integer("Which section of a long page to return. Default: 1.")},
          ["path"]),
    _tool("docs_fetch_url",
          "Fetch a public web page, such as a library's documentation or a tax authority's "
          "published rates, and return its main text as Markdown, at most 20,000 characters. "
          "Only https URLs on the allow-list are fetched.",
          {"url": _string("The https URL to fetch.")}, ["url"]),
]

_CI = [
    _tool("ci_list_runs",
          "List the latest CI pipeline runs for a branch: run id, commit, status, duration and "
          "the names of failed jobs, newest first.",
          {"branch": _string("Branch name. Default: the current branch."),
           "limit": _integer("Most runs to return, 1 to 30. Default: 10.")}, []),
    _tool("ci_get_log",
          "Return the log of one job of a CI run. Logs longer than 2,000 lines are returned from "
          "the end, with the number of lines left out at the top.",
          {"run_id": _string("The run id from ci_list_runs."),
           "job": _string("The job name, e.g. test-py311.")}, ["run_id", "job"]),
    _tool("ci_rerun",
          "Re-run the failed jobs of a CI run, for example to tell a flaky test from a real "
          "failure. Returns the new run id.",
          {"run_id": _string("The run id to re-run.")}, ["run_id"]),
    _tool("deploy_status",
          "Show which commit is deployed to each environment (staging, production), when it "
          "was deployed and by whom, and whether a deploy is in progress.",
          {"service": _string("The service name, e.g. billing-api.")}, ["service"]),
    _tool("feature_flags_get",
          "Read the current value of a feature flag in each environment, with its description "
          "and the date it was last changed.",
          {"flag": _string("The flag's key, e.g. vat_per_invoice_rounding.")}, ["flag"]),
]

# Keys are message ids: a lesson shows them with message(name, lang).
MCP_SERVERS = {N_("issue tracker"): _ISSUES, N_("reporting database"): _DATABASE,
               N_("documentation"): _DOCS, N_("CI and deploys"): _CI}
