"""Lesson 4's tables and control: the loop under a removal rule, side by side, and what it costs.

The rules are ctxlib.removal, the loop ctxlib.overflow, the cost ctxlib.cost; this module only
words their results (every line through ``ctxlib.i18n.message``) and wires the control.
"""
from __future__ import annotations

import ipywidgets as widgets

from ctxlib.cost import ANTHROPIC, NO_CACHE, run_cost
from ctxlib.i18n import N_, WordedError, check_lang, in_lang, message
from ctxlib.overflow import CURRENT_FILE, chapter_run, exploration_run, run_loop
from ctxlib.removal import (Rule, compaction, compose, drop_superseded_diffs, head_and_tail, head_trim,
                            keep_tail, no_removal, observation_masking, replace_stale_copies, summarize_span)

from ..labels import block_label, pricing_name
from ..tables import Table
from .explorer import Explorer

RULES = ("no_removal", "head_trim", "keep_tail", "head_and_tail", "observation_masking",
         "drop_superseded_diffs + head_trim", "replace_stale_copies + drop_superseded_diffs",
         "summarize_span", "compaction")
RUNS = {"chapter": N_("Lesson 2's loop: fill 120,000, a 60,000-token cascade on attempt 2"),
        "exploration": N_("the 40-turn exploration run")}


def make_rule(name: str, *, keep_last: int = 10, threshold_percent: int = 80, window_tokens: int = 200_000) -> Rule:
    """The rule called ``name`` (one of ``RULES``) with the control's parameters bound.

    ``keep_last`` is the outputs masking keeps (and the blocks a summary spares); ``threshold_percent``
    the share of ``window_tokens`` past which compaction acts (it then compacts to 30 points lower).
    Raises: ValueError for an unknown name.
    """
    if name == "observation_masking":
        return Rule(observation_masking, keep_last=keep_last)
    if name == "summarize_span":
        return Rule(summarize_span, keep_last=keep_last)
    if name == "compaction":
        threshold = threshold_percent / 100
        return Rule(compaction, window_tokens=window_tokens, threshold=threshold, low_mark=round(max(threshold - 0.3, 0.05), 2))
    simple = {"no_removal": no_removal, "head_trim": head_trim, "keep_tail": keep_tail,
              "head_and_tail": head_and_tail,
              "drop_superseded_diffs + head_trim": compose(drop_superseded_diffs, head_trim),
              "replace_stale_copies + drop_superseded_diffs": compose(replace_stale_copies, drop_superseded_diffs)}
    if name not in simple:
        raise WordedError.of(N_("rule must be one of {known}, got {rule}"), known=str(RULES), rule=repr(name))
    rule = simple[name]
    return rule if isinstance(rule, Rule) else Rule(rule)


def lost_text(item, lang: str = "en") -> str:
    """A needed item (``ctxlib.overflow.needed_items``' key) in words, e.g. "the latest tracebacks"."""
    if isinstance(item, tuple) and item[0] == CURRENT_FILE:
        return message(CURRENT_FILE, lang, path=item[1])
    return message(item, lang)


def first_lost_text(outcome, lang: str = "en") -> str:
    """Each needed item the run lost with the first turn it was missing, or "nothing needed was lost"."""
    first = outcome.first_lost
    if not first:
        return message("nothing needed was lost", lang)
    return "; ".join(message("{item} from turn {turn}", lang, item=lost_text(item, lang), turn=turn)
                     for item, turn in first.items())


def removed_tokens(outcome) -> int:
    """Tokens the rule removed over the run (a block cut again counts its new cut only)."""
    return sum(r.tokens for t in outcome.turns for r in t.removals)


def compare_rules(outcomes, lang: str = "en") -> Table:
    """One row per outcome: rule, requests, last input, stop_reason, tokens removed, billed input, what was lost."""
    check_lang(lang)
    header = [message(h, lang) for h in (N_("rule"), N_("requests"), N_("last input"), N_("stop_reason"),
                                         N_("removed"), N_("billed input"), N_("what the model lost"))]
    rows = []
    for o in outcomes:
        cost = run_cost(o, NO_CACHE)
        rows.append([o.rule, len(o.turns), o.turns[-1].input_tokens, o.stop_reason, removed_tokens(o),
                     cost.input_tokens, first_lost_text(o, lang)])
    return Table(header, rows)


def _removal_summary(removals, lang: str) -> str:
    by_action = {}
    for r in removals:
        count, tokens = by_action.get(r.action, (0, 0))
        by_action[r.action] = (count + 1, tokens + r.tokens)
    return "; ".join(message("{action} {count} ({tokens:,})", lang, action=message(action, lang), count=count,
                             tokens=tokens) for action, (count, tokens) in by_action.items())


def describe_turns(outcome, lang: str = "en") -> Table:
    """Per turn: input, reply room, stop_reason, what the rule removed (action, blocks, tokens) and what was lost."""
    check_lang(lang)
    header = [message(h, lang) for h in (N_("turn"), N_("input"), N_("reply room"), N_("stop_reason"),
                                         N_("removed"), N_("lost"))]
    rows = [[t.turn, t.input_tokens, t.max_tokens, t.stop_reason, _removal_summary(t.removals, lang),
             ", ".join(lost_text(item, lang) for item in t.lost)] for t in outcome.turns]
    return Table(header, rows, title=outcome.rule)


def cost_table(outcomes, pricing=ANTHROPIC, lang: str = "en") -> Table:
    """Per outcome: billed input tokens with no cache; with ``pricing``'s cache: cached share, cache misses, billed."""
    check_lang(lang)
    header = [message(h, lang) for h in (N_("rule"), N_("billed input, no cache"), N_("cached share"),
                                         N_("cache misses"), N_("billed with cache"))]
    rows = []
    for o in outcomes:
        c = run_cost(o, pricing)
        rows.append([o.rule, c.input_tokens, f"{c.cached_share:.0%}", c.cache_misses, round(c.billed_with_cache)])
    return Table(header, rows, title=message("prompt cache: {name}, cache read {read}x, cache write {write}x", lang,
                                             name=pricing_name(pricing, lang), read=pricing.read_fraction,
                                             write=pricing.write_fraction))


def runs_table(rows, lang: str = "en") -> Table:
    """The real runs by model and strategy (``ctxlib.course.runs.strategy_table``'s rows) as a table."""
    check_lang(lang)
    header = [message(h, lang) for h in (N_("model"), N_("strategy"), N_("tasks run"), N_("turns p50"),
                                         N_("turns p90"), N_("input tokens per call, p50"), N_("cost per task (USD)"),
                                         N_("solved"))]
    return Table(header, [[r.model, message(r.strategy, lang), r.instances, r.turns_p50, r.turns_p90,
                           r.input_tokens_p50, f"{r.mean_cost_usd:.2f}", f"{r.solve_rate:.1%}"] for r in rows])


N_("Raw Agent"), N_("Observation Masking"), N_("LLM-Summary")


def rerun_removal(rule: str = "observation_masking", keep_last: int = 10, threshold_percent: int = 80,
                  run: str = "exploration", lang: str = "en") -> str:
    """The removal explorer's callback: run ``run`` ("chapter" or "exploration") under the chosen rule.

    Returns a few lines: the rule and run, requests and stop_reason, mean input per request, tokens removed, what was lost, billed input without and with a prompt cache.
    A control's values never raise here: a bad one gives one line saying why.
    """
    check_lang(lang)
    scenario = chapter_run(120_000) if run == "chapter" else exploration_run()
    try:
        chosen = make_rule(rule, keep_last=keep_last, threshold_percent=threshold_percent,
                           window_tokens=scenario.window_tokens)
        outcome = run_loop(scenario, chosen)
    except ValueError as exc:
        return message("cannot run the loop: {error}", lang, error=in_lang(exc, lang))
    mean = sum(t.input_tokens for t in outcome.turns) / len(outcome.turns)
    plain, cached = run_cost(outcome, NO_CACHE), run_cost(outcome, ANTHROPIC)
    return "\n".join([
        message("{rule} on {run}", lang, rule=outcome.rule, run=message(RUNS[run], lang)),
        message("{requests} requests, last stop_reason {stop}; mean input {mean:,.0f} tokens per request",
                lang, requests=len(outcome.turns), stop=outcome.stop_reason, mean=mean),
        message("removed {tokens:,} tokens over the run; lost: {lost}", lang, tokens=removed_tokens(outcome),
                lost=first_lost_text(outcome, lang)),
        message("billed input {plain:,} tokens; with a prompt cache ({name}) {cached:,.0f} input-token "
                "equivalents, {misses} cache misses", lang, plain=plain.input_tokens,
                name=pricing_name(ANTHROPIC, lang),
                cached=cached.billed_with_cache, misses=cached.cache_misses),
    ])


def make_removal_explorer(lang: str = "en") -> Explorer:
    """Build (without showing) the rule menu, ``keep_last`` and threshold sliders and run menu.

    Building it prints ``rerun_removal()``'s result at the default settings once.
    """
    check_lang(lang)
    w = widgets
    return Explorer(
        lambda rule, keep_last, threshold_percent, run: print(rerun_removal(rule, keep_last, threshold_percent,
                                                                            run, lang)),
        note=message("[removal explorer: in JupyterLab, choose a rule or move a slider to re-run the loop]", lang),
        rule=w.Dropdown(options=list(RULES), value="observation_masking", description=message("rule", lang)),
        keep_last=w.IntSlider(value=10, min=1, max=20, step=1, description=message("keep last", lang),
                              continuous_update=False),
        threshold_percent=w.IntSlider(value=80, min=40, max=100, step=5,
                                      description=message("threshold %", lang), continuous_update=False),
        run=w.Dropdown(options=[(message(text, lang), key) for key, text in RUNS.items()], value="exploration",
                       description=message("run", lang)),
    )


def removal_explorer(lang: str = "en") -> None:
    """Show ``make_removal_explorer(lang)``; returns None so nbval does not see the widget twice."""
    from IPython.display import display

    display(make_removal_explorer(lang))


def show_checks(lesson: str, lang: str, ids) -> None:
    """Show only the quick checks ``ids`` of ``lesson`` (``show_quiz``), so each follows the section it practises.

    Numbered as in the whole quiz ("Quick check 3 of 8"). Raises: KeyError for an unknown id,
    and as ``ctxlib.course.quiz.load_quiz``.
    """
    from .quickchecks import show_quiz

    show_quiz(lesson, lang, ids=ids)


# --- Lines the lesson prints, each through the catalog ------------------------------------------

def blocks_table(blocks, lang: str = "en") -> Table:
    """One row per block of a request: label, kind, tokens, pinned or evictable, and for diagnostics
    whether the tracebacks at its head were kept ("yes"/"no")."""
    check_lang(lang)
    header = [message(h, lang) for h in (N_("block"), N_("kind"), N_("tokens"), N_("trim"), N_("tracebacks kept"))]
    rows = []
    for b in blocks:
        kept = ""
        if b.kind == "diagnostics":
            kept = message("yes", lang) if b.holds(0, b.tracebacks_tokens) else message("no", lang)
        rows.append([block_label(b, lang), b.kind, b.tokens, message("pinned", lang) if b.pinned else message("evictable", lang),
                     kept])
    return Table(header, rows)


def sizes_table(sizes: dict, lang: str = "en") -> Table:
    """The exploration run's distributions: kind, median tokens, lognormal spread (``overflow.EXPLORATION_SIZES``)."""
    check_lang(lang)
    header = [message(h, lang) for h in (N_("kind"), N_("median tokens"), N_("spread (lognormal sigma)"))]
    return Table(header, [[kind, median, spread] for kind, (median, spread) in sizes.items()])


def describe_mix(run, lang: str = "en") -> str:
    """How many turns of each kind a ``Run`` has, e.g. "40 turns: 19 reads, 5 searches, 16 edits with a test run"."""
    kinds = [step.output_kind for step in run.steps]
    return message("{turns} turns: {reads} reads, {searches} searches, {tests} edits with a test run", lang,
                   turns=len(kinds), reads=kinds.count("file_read"), searches=kinds.count("search_results"),
                   tests=kinds.count("diagnostics"))


def mean_input(outcome) -> float:
    """Mean input tokens per request sent in ``outcome``."""
    return sum(t.input_tokens for t in outcome.turns) / len(outcome.turns)


def describe_raw_mean(outcome, measured_tokens: int, lang: str = "en") -> str:
    """The raw run's mean input per request beside the measured p50 (tokens)."""
    return message("with no removal, mean input per request {mean:,.0f} tokens (Qwen3-Coder 480B, raw, p50: "
                   "{measured:,})", lang, mean=mean_input(outcome), measured=measured_tokens)


def cached_shares(outcome, first: int, last: int, lang: str = "en") -> str:
    """The cached share of requests ``first``..``last`` (1 = the first request) of ``outcome``, in one line."""
    from ctxlib.cost import cached_share

    pairs = [[(b.label, b.tokens) for b in t.blocks] for t in outcome.turns]
    shares = [cached_share(before, after) for before, after in zip(pairs, pairs[1:])]
    shown = ", ".join(f"{s:.0%}" for s in shares[first - 2:last - 1])
    return message("{rule}: cached share of requests {first} to {last}: {shares}", lang, rule=outcome.rule,
                   first=first, last=last, shares=shown)


def cheapest(outcomes, pricing, steps: int, lang: str = "en") -> str:
    """Which outcome that finished all ``steps`` turns bills least under ``pricing``, in one line."""
    finished = [o for o in outcomes if o.stop_reason == "end_turn" and len(o.turns) == steps]
    best = min(finished, key=lambda o: run_cost(o, pricing).billed_with_cache)
    return message("{pricing}: cheapest finished run {rule}, {billed:,.0f} input-token equivalents", lang,
                   pricing=pricing_name(pricing, lang), rule=best.rule, billed=run_cost(best, pricing).billed_with_cache)


def describe_savings(rows, instances, lang: str = "en") -> str:
    """Masking's measured saving in input tokens per call, model by model, and the summarizer's share of
    Qwen3-Coder 480B's summarizing cost (``rows``: ``runs.strategy_table``; ``instances``: ``runs.load_runs``)."""
    from ..runs import saving

    models = list(dict.fromkeys(r.model for r in rows))
    lines = [message("{model}: masking sends {saving:.1%} fewer input tokens per call (p50)", lang, model=m,
                     saving=saving(rows, m)) for m in models]
    summarized = [i for i in instances if (i.model, i.strategy) == ("Qwen3-Coder 480B", "LLM-Summary")]
    share = sum(i.summary_cost_usd for i in summarized) / sum(i.cost_usd for i in summarized)
    lines.append(message("Qwen3-Coder 480B with LLM-Summary: the summarizer's own calls are {share:.1%} of the cost",
                         lang, share=share))
    return "\n".join(lines)


def simulated_savings(measured: float, turns=(20, 40, 80, 120), lang: str = "en") -> str:
    """Masking (keep_last=10) against no removal on the exploration run of each length, in a window the raw
    agent never fills, then the ``measured`` saving: mean input per request and the share saved."""
    lines = []
    for n in turns:
        run = exploration_run(n, window_tokens=1_000_000)
        raw, masked = run_loop(run, no_removal), run_loop(run, Rule(observation_masking, keep_last=10))
        lines.append(message("{turns} turns: no removal {raw:,.0f}, masking {masked:,.0f} tokens per request: "
                             "{saving:.1%} saved", lang, turns=n, raw=mean_input(raw), masked=mean_input(masked),
                             saving=1 - mean_input(masked) / mean_input(raw)))
    lines.append(message("measured, Qwen3-Coder 480B (p50 over 500 tasks): {saving:.1%} saved", lang, saving=measured))
    return "\n".join(lines)


def input_growth(outcome, first: int, lang: str = "en") -> str:
    """The input of request ``first`` (1 = the first request) and of the last request of ``outcome``, in tokens.

    Lesson 4, section 6: masking's input still grows ("10,664 ... 20,489"). Raises: IndexError if
    ``outcome`` has fewer than ``first`` requests.
    """
    turns = outcome.turns
    return message("{rule}: input of request {first}: {start:,} tokens; of request {last}: {end:,} tokens", lang,
                   rule=outcome.rule, first=first, start=turns[first - 1].input_tokens, last=len(turns),
                   end=turns[-1].input_tokens)


def cost_gap(cheaper, dearer, pricing, lang: str = "en") -> str:
    """How much less ``cheaper`` bills than ``dearer`` under ``pricing``'s cache (``ctxlib.cost.run_cost``), as a
    share of ``dearer``'s bill in input-token equivalents, in one line (Lesson 4, section 9)."""
    a, b = run_cost(cheaper, pricing).billed_with_cache, run_cost(dearer, pricing).billed_with_cache
    return message("{cheaper} bills {gap:.1%} less than {dearer} ({pricing})", lang, cheaper=cheaper.rule,
                   dearer=dearer.rule, gap=1 - a / b, pricing=pricing_name(pricing, lang))


def real_cost_gap(rows, model: str, lang: str = "en") -> str:
    """The measured mean cost per task (USD) of ``model`` under masking and under LLM-Summary, and how much more
    the summary costs, in one line (``rows``: ``runs.strategy_table``). Raises: KeyError if a row is missing."""
    by = {(r.model, r.strategy): r for r in rows}
    masking, summary = by[(model, "Observation Masking")].mean_cost_usd, by[(model, "LLM-Summary")].mean_cost_usd
    return message("measured, {model}: masking ${masking:.2f}, LLM-Summary ${summary:.2f} per task: the summary "
                   "costs {gap:.1%} more", lang, model=model, masking=masking, summary=summary,
                   gap=summary / masking - 1)


RULE_SUMMARIES = (
    ("head_trim", N_("cut the oldest tool output from its head while over the target"), N_("Lesson 2's trim")),
    ("keep_tail", N_("the same cut, but every output keeps its last tokens (its summary)"), N_("a variant of Lesson 2's trim")),
    ("head_and_tail", N_("a long tool output keeps its head and its tail; the middle goes"), N_("Codex-style harnesses")),
    ("observation_masking", N_("the last M tool outputs stay; older ones become a one-line placeholder"), N_("SWE-agent")),
    ("drop_superseded_diffs", N_("a diff replaced by a later diff of the same file is dropped"), N_("this lesson")),
    ("replace_stale_copies", N_("a file read again supersedes its older copy"), N_("this lesson")),
    ("summarize_span", N_("older blocks become one summary block of a stated size"), N_("OpenHands' summarizing condenser")),
    ("compaction", N_("past a share of the window, summarize the oldest blocks down to a lower mark"), N_("the course's generalization of Claude Code's compaction")),
)


def rules_table(lang: str = "en") -> Table:
    """The eight rules: name (the function in ``ctxlib.removal``), what it does, where it comes from."""
    check_lang(lang)
    header = [message(h, lang) for h in (N_("rule"), N_("what it does"), N_("from"))]
    return Table(header, [[name, message(what, lang), message(source, lang)] for name, what, source in RULE_SUMMARIES])
