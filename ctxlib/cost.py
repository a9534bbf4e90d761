"""What a run costs in input tokens, without and with a prompt cache.

Lesson 4. Every turn re-sends the whole transcript, so the billed input of a run is the sum of
every request's input: it grows roughly with the square of the number of turns.

A provider's **prompt cache** reuses the longest unchanged *prefix* of the previous request:
here, the leading blocks that are identical (same block, same content kept) to the previous
request's, if they come to at least ``min_cached_tokens``. Those tokens are **cache reads**,
billed at ``read_fraction`` of the input price; the rest of the request is written to the cache,
billed at ``write_fraction``. A rule that edits the middle of the transcript (masking the block
that just fell out of its window) makes the cache miss from that block on; a rule that acts
rarely (compaction at a threshold) misses rarely, but then on almost everything.

Prices, as fractions of the base input price per token (illustrative: prices change; check
the provider's page before relying on them; looked up 2026-12-01):

    ANTHROPIC   cache read 0.10x, cache write 1.25x (5-minute cache), minimum 1,024 tokens
                (platform.claude.com/docs/en/about-claude/pricing, "Prompt caching")
    OPENAI      cached input 0.10x ("input token costs by up to 90%"), no write surcharge (1.0x),
                minimum 1,024 tokens (OpenAI cookbook "Prompt Caching 201", models before GPT-5.6)
    REAL_RUNS   cached input 0.40x, no write surcharge: the price list Lindenbauer et al. 2025 applied
                after the runs to bill their self-hosted Qwen models' tokens (Lesson 4, section 9)

Units: tokens, and "input-token equivalents" (tokens x their price fraction), which times the
base price per token gives money. Not handled: cache expiry (every turn is assumed to come
within the cache's lifetime), output tokens, cache breakpoints chosen by the harness.
"""
from __future__ import annotations

from dataclasses import dataclass

from .ceiling import check_tokens
from .i18n import N_, WordedError, shown


@dataclass(frozen=True)
class Pricing:
    """Cache prices as fractions of the base input price, and the shortest prefix that is cached (tokens)."""

    name: str
    read_fraction: float
    write_fraction: float
    min_cached_tokens: int = 1_024

    def __post_init__(self):
        for field_name in ("read_fraction", "write_fraction"):
            value = getattr(self, field_name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise WordedError.of(N_("{field} must be a number >= 0, got {value}"), field=field_name, value=shown(value))
        check_tokens("min_cached_tokens", self.min_cached_tokens)


ANTHROPIC = Pricing("Anthropic (5-minute cache)", 0.10, 1.25)
OPENAI = Pricing("OpenAI (automatic cache)", 0.10, 1.00)
NO_CACHE = Pricing("no prompt cache", 1.00, 1.00, 0)
REAL_RUNS = Pricing("the real runs' price list (cached input 0.4x)", 0.40, 1.00)


@dataclass(frozen=True)
class RequestCost:
    """One request: input tokens, of which cached (read from the cache) and written, and its billed equivalents."""

    input_tokens: int
    cached_tokens: int
    written_tokens: int
    billed: float


def cached_prefix_tokens(previous, request, min_cached_tokens: int = 1_024) -> int:
    """Tokens of the longest run of leading blocks ``request`` shares with ``previous`` (both block sequences).

    0 if that prefix is shorter than ``min_cached_tokens``. Example: [A, B, C] after [A, B, D]
    -> tokens of A + B.
    """
    shared = 0
    for old, new in zip(previous or (), request):
        if old != new:
            break
        shared += new.tokens
    return shared if shared >= min_cached_tokens else 0


def request_costs(requests, pricing: Pricing = ANTHROPIC) -> list[RequestCost]:
    """The cost of each request in order (``requests``: block sequences, e.g. the ``Turn.blocks`` of a run).

    Cached = the prefix shared with the request before; written = the rest; billed =
    cached x read_fraction + written x write_fraction, in input-token equivalents.
    """
    costs, previous = [], None
    for blocks in requests:
        total = sum(b.tokens for b in blocks)
        cached = cached_prefix_tokens(previous, blocks, pricing.min_cached_tokens) if pricing is not NO_CACHE else 0
        written = total - cached
        costs.append(RequestCost(total, cached, written, cached * pricing.read_fraction + written * pricing.write_fraction))
        previous = blocks
    return costs


@dataclass(frozen=True)
class RunCost:
    """A run's totals: billed input tokens with no cache, and with ``pricing``'s cache."""

    input_tokens: int
    cached_tokens: int
    written_tokens: int
    billed_no_cache: float
    billed_with_cache: float
    cache_misses: int

    @property
    def cached_share(self) -> float:
        """Cached tokens / input tokens over the run (0.0 for an empty run)."""
        return self.cached_tokens / self.input_tokens if self.input_tokens else 0.0


def run_cost(outcome, pricing: Pricing = ANTHROPIC) -> RunCost:
    """Totals for an ``overflow.Outcome`` (its requests that were sent; a refused one is not billed).

    ``cache_misses`` counts the requests after the first whose cached prefix covers less than the
    previous request's blocks (the cache broke inside the old part). Units: tokens and input-token
    equivalents. Example: a run that only appends has cache_misses 0.
    """
    sent = [t for t in outcome.turns if t.stop_reason != "context_length_exceeded"]
    costs = request_costs([t.blocks for t in sent], pricing)
    misses = sum(1 for before, after in zip(sent, sent[1:])
                 if tuple(after.blocks[:len(before.blocks)]) != tuple(before.blocks))
    return RunCost(sum(c.input_tokens for c in costs), sum(c.cached_tokens for c in costs),
                   sum(c.written_tokens for c in costs), float(sum(c.input_tokens for c in costs)),
                   sum(c.billed for c in costs), misses)


def cached_share(previous: list, request: list) -> float:
    """The share of a request's input read from the cache; both are lists of ``(label, tokens)`` in order.

    The leading pairs that are equal in both are the cached prefix (no minimum size here).
    Example: previous [("prefix", 9_000), ("task", 1_000), ("pytest 1", 18_000)], request
    [("prefix", 9_000), ("task", 1_000), ("pytest 1 (masked)", 20), ("diff 2", 6_000)] -> 10,000 / 16,020.
    """
    shared = 0
    for old, new in zip(previous, request):
        if tuple(old) != tuple(new):
            break
        shared += new[1]
    total = sum(tokens for _, tokens in request)
    return shared / total if total else 0.0
